import type { Readable } from 'node:stream';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { QuotaPolicy } from '../admin/quota-policy.js';
import { TusUploadRepository } from '../../db/repositories/tus-upload.repository.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { nameKeyOf, sanitizeName } from '../../domain/names.js';
import { DomainError, NotFoundError } from '../../domain/errors.js';
import { SNIFF_BYTES, detectContentType, mediaKindOf } from '../../media/mime.js';
import { newId } from '../../security/ids.js';
import { BlobTooLargeError, type EncryptedStore } from '../../storage/blob-store.js';
import type { DriveRepositories } from '../../db/unit-of-work.js';
import type { Clock } from '../clock.js';
import type { DriveEvents } from '../drive/drive-events.js';
import type { FolderService } from '../drive/folder.service.js';
import type { TransferMeter } from '../../observability/metrics.js';
import type { Content, ContentAuthor, FileVersions } from '../versions/file-versions.js';

/**
 * Keeps the first bytes of an upload for content sniffing and counts them for the transfer
 * metrics; the store shows it each piece as it reads it, so an upload costs no stream stage of its own.
 */
class HeadCapture {
  private parts: Buffer[] = [];
  private captured = 0;

  constructor(private readonly meter: TransferMeter | undefined) {}

  readonly take = (chunk: Buffer): void => {
    this.meter?.uploaded(chunk.length);
    if (this.captured < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.captured);
      this.parts.push(part);
      this.captured += part.length;
    }
  };

  get head(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** Bytes stored and sealed, waiting for their file row. */
export interface StoredBlob {
  ownerId: string;
  /** Folder id or null for the root; checked again when the row is made. */
  folderId: string | null;
  /** Already a valid stored name. */
  filename: string;
  storageKey: string;
  size: number;
  sha256: string;
  crc32: number;
  wrappedKey: string;
  contentType: string;
  /**
   * The resumable upload the bytes came from: its reservation is not counted a second time, and
   * it is marked done with the file in the same transaction, so its bytes never count twice.
   */
  uploadId?: string;
  /** Who stored the bytes; absent: the owner, from the web app or the API. */
  author?: ContentAuthor;
}

export interface StoreFileInput {
  ownerId: string;
  filename: string;
  /** Folder id or null for the root; already checked to be the owner's active folder. */
  folderId: string | null;
  body: Readable;
  /** A lower cap than the server's for this one file (a drop link's). */
  maxBytes?: number;
  /** Who stores the bytes; absent: the owner, from the web app or the API. */
  author?: ContentAuthor;
}

/**
 * Streams an upload through encryption into storage, then commits the row. The row exists only
 * once the bytes are durable; any failure (an aborted client included) leaves neither row nor bytes.
 */
export class UploadService {
  constructor(
    private readonly uow: UnitOfWork,
    readonly folders: FolderService,
    private readonly store: EncryptedStore,
    private readonly events: DriveEvents,
    private readonly clock: Clock,
    private readonly limits: { maxUploadBytes: number | null },
    private readonly quota: QuotaPolicy,
    private readonly versions: FileVersions,
    private readonly transfers?: TransferMeter,
  ) {}

  /** An upload into `parent` ('/' or a folder id of the owner, active). */
  async uploadInto(input: { ownerId: string; parent: string; filename: string; body: Readable; author?: ContentAuthor }): Promise<FileRow> {
    const folderId = await this.folders.resolveActiveParent(input.ownerId, input.parent);
    return this.storeFile({
      ownerId: input.ownerId,
      filename: input.filename,
      folderId,
      body: input.body,
      ...(input.author ? { author: input.author } : {}),
    });
  }

  async storeFile(input: StoreFileInput): Promise<FileRow> {
    const filename = sanitizeName(input.filename);
    const { storageKey, written, contentType } = await this.writeBlob(input.ownerId, filename, input.body, 0, input.maxBytes);
    return this.commitStored({
      ownerId: input.ownerId,
      folderId: input.folderId,
      filename,
      storageKey,
      ...written,
      contentType,
      ...(input.author ? { author: input.author } : {}),
    });
  }

  /**
   * The file row for bytes already durable under `storageKey` (a one-request upload, or a
   * resumable one whose last piece arrived): quota and parent checked again under the owner's
   * lock, row and jobs in one transaction. On failure the bytes are deleted.
   */
  async commitStored(input: StoredBlob): Promise<FileRow> {
    const { filename, storageKey, contentType } = input;
    const now = this.clock.now();
    const row: FileRow = {
      id: newId(),
      ownerId: input.ownerId,
      folderId: input.folderId,
      filename,
      nameKey: nameKeyOf(filename),
      size: input.size,
      contentType,
      mediaKind: mediaKindOf(contentType),
      sha256: input.sha256,
      crc32: input.crc32,
      storageKey,
      wrappedKey: input.wrappedKey,
      uploadedAt: now,
      updatedAt: now,
      trashedAt: null,
      trashedVia: null,
      linkType: null,
      linkToken: null,
      thumbnailId: null,
      createdAt: now,
      contentAuthorId: input.author?.accountId ?? input.ownerId,
      contentVia: input.author?.via ?? null,
    };
    let stored: FileRow;
    try {
      stored = await this.uow.run(async (r) => {
        let released: string[] = [];
        const quotaBytes = await this.quota.limitOf(input.ownerId, r.db);
        if (quotaBytes !== null) {
          // Under the owner's lock, so two uploads finishing together cannot both take the last bytes.
          await r.folders.lockTree(input.ownerId);
          released = await this.versions.makeRoom(r, input.ownerId, quotaBytes, row.size, input.uploadId);
          if ((await r.files.bytesCharged(input.ownerId, input.uploadId)) + row.size > quotaBytes) throw quotaExceeded(quotaBytes);
        }
        const placed = await this.placeInParent(r, row);
        await r.files.insert(placed);
        await this.events.blobsReleased(r.db, input.ownerId, released);
        if (input.uploadId !== undefined) await new TusUploadRepository(r.db).complete(input.uploadId, placed.id);
        await this.events.fileStored(r.db, placed);
        return placed;
      });
    } catch (err) {
      await this.store.delete(storageKey).catch(() => undefined);
      throw err;
    }
    this.events.committed();
    return stored;
  }

  /**
   * New content for an existing file (a WebDAV PUT onto it, a tus upload that replaces it, "Upload
   * new version"): same id, name, place and links. The old content is kept as a version in the
   * transaction that swaps it (see FileVersions); the old thumbnail and preview go to the
   * blob-deletion job, and the file is described again (thumbnail, search) as a new upload is.
   * Content identical to the current one (same SHA-256) changes nothing and makes no version.
   */
  async replaceContent(ownerId: string, fileId: string, body: Readable, author: ContentAuthor = ownerAuthor(ownerId)): Promise<FileRow> {
    const current = await this.uow.repos.files.findOwned(ownerId, fileId);
    if (!current || current.trashedAt !== null) throw new NotFoundError('FILE_NOT_FOUND', 'File not found');
    const { storageKey, written, contentType } = await this.writeBlob(ownerId, current.filename, body, current.size);
    return this.commitReplacement(ownerId, fileId, { storageKey, contentType, ...written }, author);
  }

  /**
   * Makes content already durable under `next.storageKey` the file's (a one-request replacement,
   * or a resumable one whose last piece arrived). On failure, or when the content is unchanged,
   * the new bytes are deleted.
   */
  async commitReplacement(ownerId: string, fileId: string, next: Content, author: ContentAuthor, uploadId?: string): Promise<FileRow> {
    let outcome: { file: FileRow; changed: boolean };
    try {
      outcome = await this.uow.run(async (r) => {
        await r.folders.lockTree(ownerId);
        const file = await r.files.findOwned(ownerId, fileId);
        if (!file || file.trashedAt !== null) throw new NotFoundError('FILE_NOT_FOUND', 'File not found');
        if (uploadId !== undefined) await new TusUploadRepository(r.db).complete(uploadId, file.id);
        if (file.sha256 === next.sha256 && file.size === next.size) return { file, changed: false };
        const swapped = await this.versions.swapContent(r, file, next, author, this.clock.now());
        const released = swapped.released;
        // Measured after the swap, so the content just replaced is a version like the others and
        // goes first if it must: a replacement never fails for want of room versions could give.
        const quotaBytes = await this.quota.limitOf(ownerId, r.db);
        if (quotaBytes !== null) {
          released.push(...(await this.versions.makeRoom(r, ownerId, quotaBytes, 0, uploadId)));
          if ((await r.files.bytesCharged(ownerId, uploadId)) > quotaBytes) throw quotaExceeded(quotaBytes);
        }
        await this.events.blobsReleased(r.db, ownerId, released);
        await this.events.fileStored(r.db, swapped.file);
        return { file: swapped.file, changed: true };
      });
    } catch (err) {
      await this.store.delete(next.storageKey).catch(() => undefined);
      throw err;
    }
    if (!outcome.changed) await this.store.delete(next.storageKey).catch(() => undefined);
    this.events.committed();
    return outcome.file;
  }

  /**
   * Streams `body` into a new encrypted blob under the upload and quota limits. `replacing` is the
   * size of a file the blob will replace: its content becomes a version, which may make room.
   */
  private async writeBlob(ownerId: string, filename: string, body: Readable, replacing: number, cap = Infinity) {
    const storageKey = newId();
    const { maxUploadBytes } = this.limits;
    const quotaBytes = await this.quota.limitOf(ownerId);
    // With a quota, the upload may take no more than what is left of it beside the files and the
    // unfinished resumable uploads' reservations (checked again at commit).
    // Kept versions make room for new content (the oldest go first), so they count as free here.
    const left =
      quotaBytes === null
        ? null
        : quotaBytes - (await this.uow.repos.files.bytesCharged(ownerId)) + (await this.uow.repos.versions.bytesOf(ownerId)) + replacing;
    if (left !== null && left <= 0) throw quotaExceeded(quotaBytes!);
    const head = new HeadCapture(this.transfers);
    // The store reads `body` only once it starts pulling; a body that fails before then (a client
    // cut off mid-part) would otherwise be an unhandled 'error' that ends the process. The store
    // still sees the failure: reading a destroyed stream rejects with its error.
    body.on('error', () => undefined);
    const maxBytes = Math.min(maxUploadBytes ?? Infinity, left ?? Infinity, cap);
    let written;
    try {
      // The body stays the caller's: an upload refused part-way still gets its answer.
      const options = { onBytes: head.take, keepSource: true };
      written = await this.store.write(storageKey, body, Number.isFinite(maxBytes) ? { ...options, maxBytes } : options);
    } catch (err) {
      if (err instanceof BlobTooLargeError) {
        if (left !== null && left < (maxUploadBytes ?? Infinity)) throw quotaExceeded(quotaBytes!);
        throw new DomainError('PAYLOAD_TOO_LARGE', `File is larger than ${err.maxBytes} bytes`);
      }
      throw err;
    }
    return { storageKey, written, contentType: await detectContentType(head.head, filename) };
  }

  /**
   * The parent was checked before the bytes arrived; it is checked again under the tree lock, in
   * the transaction that inserts the row. A folder trashed meanwhile takes the new file along into
   * the trash (restoring the folder brings it back); a folder deleted meanwhile refuses it.
   */
  private async placeInParent(r: DriveRepositories, row: FileRow): Promise<FileRow> {
    if (row.folderId === null) return row;
    await r.folders.lockTree(row.ownerId);
    const parent = await r.folders.findOwned(row.ownerId, row.folderId);
    if (!parent) throw new NotFoundError('FOLDER_NOT_FOUND', 'Folder not found');
    if (parent.trashedAt === null) return row;
    return { ...row, trashedAt: parent.trashedAt, trashedVia: parent.trashedVia ?? parent.id };
  }
}

function ownerAuthor(ownerId: string): ContentAuthor {
  return { accountId: ownerId, via: null };
}

function quotaExceeded(quotaBytes: number): DomainError {
  return new DomainError('QUOTA_EXCEEDED', `This upload would go over your storage quota of ${quotaBytes} bytes`);
}
