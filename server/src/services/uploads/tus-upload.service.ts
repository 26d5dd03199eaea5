import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FileRepository, FileRow } from '../../db/repositories/file.repository.js';
import { TusUploadRepository, type TusUploadRow } from '../../db/repositories/tus-upload.repository.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { ConflictError, DomainError, InvalidError, NotFoundError } from '../../domain/errors.js';
import { sanitizeName } from '../../domain/names.js';
import { JOB } from '../../jobs/job-names.js';
import type { JobQueue } from '../../jobs/queue.js';
import { SNIFF_BYTES, detectContentType } from '../../media/mime.js';
import { newId, newSecret } from '../../security/ids.js';
import { BodyTooLongError, type ResumableStore, type ResumableTarget } from '../../storage/resumable-store.js';
import type { RunningHash } from '../../storage/running-hash.js';
import type { Clock } from '../clock.js';
import type { FolderService } from '../drive/folder.service.js';
import type { UploadService } from './upload.service.js';
import type { TransferMeter } from '../../observability/metrics.js';
import type { QuotaPolicy } from '../admin/quota-policy.js';

export type { TusUploadRow } from '../../db/repositories/tus-upload.repository.js';

export interface TusLimits {
  maxUploadBytes: number | null;
  quota: QuotaPolicy;
  /** An upload untouched this long is deleted with its bytes. */
  expiryMs: number;
}

/** Unfinished uploads one account may hold at once. */
export const MAX_OPEN_UPLOADS = 100;
/** Visitors of one drop link cannot hold more of the owner's unfinished uploads than this. */
export const MAX_OPEN_DROP_UPLOADS = 10;

/** Told about uploads that came through a drop link. */
export interface TusUploadObserver {
  finished(upload: TusUploadRow, file: FileRow): Promise<void>;
  abandoned(upload: TusUploadRow): Promise<void>;
}
const LEASE_MS = 15_000;
const RENEW_MS = 5_000;
const PURGE_BATCH = 100;
/** A carried hash unused this long is dropped; the upload's end then hashes the stored bytes. */
const HASH_IDLE_MS = 60_000;

interface CarriedHash {
  /** The upload offset the hash covers. */
  offset: number;
  hash: RunningHash;
  idle: NodeJS.Timeout;
}

export interface AppendResult {
  upload: TusUploadRow;
  /** The file the upload became, when this piece completed it. */
  file: FileRow | null;
}

/**
 * Resumable uploads (tus 1.0): an upload is declared with its length, its pieces are sealed and
 * stored as they arrive, and the file row is made only when the last byte is durable, exactly as
 * for a one-request upload. Upload state lives in the database, so any process takes the next
 * piece; the SHA-256 is carried in memory while one process sees every piece, and computed from
 * the stored bytes otherwise.
 */
export class TusUploadService {
  private readonly hashes = new Map<string, CarriedHash>();

  constructor(
    private readonly uploads: TusUploadRepository,
    private readonly uow: UnitOfWork,
    private readonly folders: FolderService,
    private readonly fileUploads: UploadService,
    private readonly store: ResumableStore,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    readonly limits: TusLimits,
    private readonly transfers?: TransferMeter,
  ) {}

  private observer: TusUploadObserver | null = null;

  /** Who is told when an upload through a drop link becomes a file or is abandoned. */
  observe(observer: TusUploadObserver): void {
    this.observer = observer;
  }

  /**
   * Declares an upload into `ownerId`'s drive. With `replaces`, the upload becomes that file's new
   * content when finished (the old one kept as a version) instead of a new file; `authorId` is the
   * account uploading when it is not the owner (an editor of a share), recorded as the content's.
   */
  async create(
    ownerId: string,
    input: {
      length: number;
      filename: string;
      parent: string;
      metadata: string;
      drop?: { linkId: string; uploaderName: string | null };
      replaces?: string;
      authorId?: string;
    },
  ): Promise<TusUploadRow> {
    const { maxUploadBytes } = this.limits;
    if (maxUploadBytes !== null && input.length > maxUploadBytes) {
      throw new DomainError('PAYLOAD_TOO_LARGE', `File is larger than ${maxUploadBytes} bytes`);
    }
    let filename = sanitizeName(input.filename);
    let folderId: string | null;
    if (input.replaces === undefined) folderId = await this.folders.resolveActiveParent(ownerId, input.parent);
    else {
      // The replaced file keeps its name and place: the upload is recorded with them (checked
      // again under the owner's lock below, and when the last byte arrives).
      const target = await replaceableFile(this.uow.repos.files, ownerId, input.replaces);
      filename = target.filename;
      folderId = target.folderId;
    }
    const id = newSecret();
    const target = this.store.begin(newId(), input.length);
    const now = this.clock.now();
    const row: TusUploadRow = {
      id,
      ownerId,
      folderId,
      filename,
      metadata: input.metadata,
      length: input.length,
      offset: 0,
      segments: 0,
      storageKey: target.storageKey,
      wrappedKey: target.wrappedKey,
      leaseUntil: null,
      fileId: null,
      createdAt: now,
      expiresAt: now + this.limits.expiryMs,
      dropLinkId: input.drop?.linkId ?? null,
      uploaderName: input.drop?.uploaderName ?? null,
      replacesFileId: input.replaces ?? null,
      authorId: input.authorId !== undefined && input.authorId !== ownerId ? input.authorId : null,
    };
    // The upload's length is reserved against the quota, and its place among the open uploads
    // taken, by checking and inserting in one transaction under the owner's lock: creations at
    // once each see those before them, so none passes on room another is taking.
    await this.uow.run(async (r) => {
      await r.folders.lockTree(ownerId);
      const uploads = new TusUploadRepository(r.db);
      const replaced = input.replaces === undefined ? null : await replaceableFile(r.files, ownerId, input.replaces);
      const quotaBytes = await this.limits.quota.limitOf(ownerId, r.db);
      if (quotaBytes !== null) {
        // Kept versions give way to new content when it is stored (the oldest first), and so does
        // the content a replacement turns into a version: neither stands in the way of the upload.
        const room = (await r.versions.bytesOf(ownerId)) + (replaced?.size ?? 0);
        if ((await r.files.bytesCharged(ownerId)) - room + input.length > quotaBytes) {
          throw new DomainError('QUOTA_EXCEEDED', `This upload would go over your storage quota of ${quotaBytes} bytes`);
        }
      }
      if (input.drop && (await uploads.countForLink(input.drop.linkId)) >= MAX_OPEN_DROP_UPLOADS) {
        throw new ConflictError('CONFLICT', `At most ${MAX_OPEN_DROP_UPLOADS} unfinished uploads through one link at once`);
      }
      if ((await uploads.countOwned(ownerId)) >= MAX_OPEN_UPLOADS) {
        throw new ConflictError('CONFLICT', `At most ${MAX_OPEN_UPLOADS} unfinished uploads at once; finish or cancel some first`);
      }
      await uploads.insert(row);
    });
    this.carry(id, 0, this.store.startHash());
    return row;
  }

  /** The owner's upload; given `dropLinkId`, only one that came through that link (null: through none). */
  async get(ownerId: string, id: string, dropLinkId?: string | null): Promise<TusUploadRow> {
    const row = await this.uploads.findOwned(ownerId, id);
    if (!row || row.expiresAt <= this.clock.now() || (dropLinkId !== undefined && row.dropLinkId !== dropLinkId)) {
      throw new NotFoundError('NOT_FOUND', 'Upload not found');
    }
    return row;
  }

  /**
   * Where an unexpired upload lands, whoever made it: for deciding who else may continue it (an
   * editor of that folder, or of the file it replaces).
   */
  async targetOf(id: string): Promise<Pick<TusUploadRow, 'ownerId' | 'folderId' | 'dropLinkId' | 'replacesFileId'> | undefined> {
    const row = await this.uploads.findById(id);
    return row && row.expiresAt > this.clock.now()
      ? { ownerId: row.ownerId, folderId: row.folderId, dropLinkId: row.dropLinkId, replacesFileId: row.replacesFileId }
      : undefined;
  }

  /** An upload through a drop link, for a visitor of that link; any other answers not found. */
  async getForLink(linkId: string, id: string): Promise<TusUploadRow> {
    const row = await this.uploads.findById(id);
    if (!row || row.dropLinkId !== linkId || row.expiresAt <= this.clock.now()) throw new NotFoundError('NOT_FOUND', 'Upload not found');
    return row;
  }

  /**
   * Stores the body as the piece at `offset`. A body cut short keeps its whole chunks unless a
   * checksum must vouch for it; the answer's offset says how far the upload got. An upload that
   * did not come through `dropLinkId` (null: through no link) answers not found.
   */
  async append(
    ownerId: string,
    id: string,
    offset: number,
    body: Readable,
    checksum: Buffer | null,
    dropLinkId: string | null,
  ): Promise<AppendResult> {
    const now = this.clock.now();
    // The usual piece takes the upload in one statement that also checks it is live, at `offset`
    // and free, and answers the row as taken; anything else is sorted out by reading it.
    const row = await this.uploads.claimPiece(ownerId, id, offset, now, now + LEASE_MS);
    if (!row) return this.appendUnclaimed(ownerId, id, offset, body, dropLinkId);
    if (row.dropLinkId !== dropLinkId) {
      await this.uploads.release(id);
      throw new NotFoundError('NOT_FOUND', 'Upload not found');
    }
    const renew = setInterval(() => void this.uploads.renew(id, this.clock.now() + LEASE_MS).catch(() => undefined), RENEW_MS);
    renew.unref();
    let released = false;
    try {
      const target: ResumableTarget = { storageKey: row.storageKey, wrappedKey: row.wrappedKey, length: row.length };
      // The hash is taken for this piece and carried on only if the piece is stored cleanly.
      const hash = this.takeHash(id, row.offset);
      let carriedOn = false;
      try {
        const bodyHash = checksum ? createHash('sha256') : null;
        let kept: number;
        try {
          kept = await this.store.append(target, body, {
            offset,
            segment: row.segments,
            keepPartial: checksum === null,
            onBytes: (bytes: Buffer) => {
              this.transfers?.uploaded(bytes.length);
              bodyHash?.update(bytes);
            },
            ...(hash ? { hash } : {}),
          });
        } catch (err) {
          if (err instanceof BodyTooLongError) throw new InvalidError(err.message);
          throw err;
        }
        if (bodyHash && !bodyHash.digest().equals(checksum!)) {
          throw new DomainError('CHECKSUM_MISMATCH', 'Upload-Checksum does not match the body; nothing of it was kept');
        }
        const next = offset + kept;
        const complete = next === row.length;
        // A piece that kept nothing leaves no segment: the next one takes its number.
        const segments = row.segments + (kept > 0 || complete ? 1 : 0);
        const expiresAt = this.clock.now() + this.limits.expiryMs;
        const advanced = { ...row, offset: next, segments, expiresAt, leaseUntil: null };
        if (!complete) {
          // The offset is recorded and the lease let go in one statement; the hash is carried
          // first, since the next piece may be taken the moment that commits.
          if (hash) this.carry(id, next, hash);
          carriedOn = true;
          try {
            await this.uploads.advance(id, next, segments, expiresAt, true);
          } catch (err) {
            this.takeHash(id, Number.NaN);
            throw err;
          }
          released = true;
          return { upload: advanced, file: null };
        }
        // The last piece keeps the lease until its file is made: nothing else may settle it meanwhile.
        await this.uploads.advance(id, next, segments, expiresAt);
        let file: FileRow;
        try {
          file = await this.finish(advanced, hash);
        } catch (err) {
          // The file could not be made (its folder went meanwhile, the quota filled up): the upload
          // ends here rather than sit complete with no file.
          await this.forget(advanced);
          throw err;
        }
        released = true;
        return { upload: { ...advanced, fileId: file.id }, file };
      } finally {
        if (!carriedOn) hash?.drop();
      }
    } finally {
      clearInterval(renew);
      if (!released) await this.uploads.release(id).catch(() => undefined);
    }
  }

  /**
   * A piece that could not take the upload, told why as a client expects it: an unknown or
   * expired upload, another offset, an upload already done, one whose file is still to be made
   * (settled here), or another request holding it.
   */
  private async appendUnclaimed(
    ownerId: string,
    id: string,
    offset: number,
    body: Readable,
    dropLinkId: string | null,
  ): Promise<AppendResult> {
    const row = await this.get(ownerId, id, dropLinkId);
    if (offset !== row.offset)
      throw new DomainError('UPLOAD_OFFSET_MISMATCH', `The upload is at offset ${row.offset}`, { offset: row.offset });
    if (row.fileId !== null) return { upload: row, file: null };
    if (isStranded(row)) {
      // Every byte is stored but the file was not made: nothing more may come, only the file.
      for await (const piece of body as AsyncIterable<Buffer>) {
        if (piece.length > 0) throw new InvalidError('The body goes past the upload length');
      }
      const settled = await this.settle(row);
      return { upload: settled, file: null };
    }
    throw new DomainError('UPLOAD_BUSY', 'Another request is storing a piece of this upload');
  }

  /**
   * Makes the file of an upload whose bytes are all stored when a process stopped between storing
   * the last piece and making its file (a crash, a kill); any other upload is answered as it is.
   * A client that sees every byte acknowledged sends nothing more, so HEAD and PATCH both settle.
   */
  async settle(row: TusUploadRow): Promise<TusUploadRow> {
    if (!isStranded(row)) return row;
    if (!(await this.uploads.claim(row.id, this.clock.now(), this.clock.now() + LEASE_MS))) {
      throw new DomainError('UPLOAD_BUSY', 'Another request is storing a piece of this upload');
    }
    try {
      const current = await this.uploads.findById(row.id);
      if (!current || !isStranded(current)) return current ?? row;
      let file: FileRow;
      try {
        // No running hash survives a stopped process: the stored bytes are read back for it.
        file = await this.finish(current, undefined);
      } catch (err) {
        await this.forget(current);
        throw err;
      }
      return { ...current, fileId: file.id };
    } finally {
      await this.uploads.release(row.id).catch(() => undefined);
    }
  }

  /** Cancels an upload: its row and stored pieces go. */
  async terminate(ownerId: string, id: string): Promise<void> {
    const row = await this.get(ownerId, id);
    await this.forget(row);
  }

  /** Deletes uploads past their expiry (a job); answers how many went. */
  async purgeExpired(): Promise<number> {
    let purged = 0;
    for (;;) {
      const rows = await this.uploads.expired(this.clock.now(), PURGE_BATCH);
      if (rows.length === 0) return purged;
      for (const row of rows) await this.forget(row);
      purged += rows.length;
    }
  }

  /** Keeps an upload's hash for its next piece; one that waits too long is let go (it holds a thread's slot). */
  private carry(id: string, offset: number, hash: RunningHash): void {
    const idle = setTimeout(() => this.takeHash(id, Number.NaN), HASH_IDLE_MS);
    idle.unref();
    this.hashes.set(id, { offset, hash, idle });
  }

  /** The upload's hash if it covers exactly the bytes before `offset`; any other is dropped. */
  private takeHash(id: string, offset: number): RunningHash | undefined {
    const carried = this.hashes.get(id);
    if (!carried) return undefined;
    this.hashes.delete(id);
    clearTimeout(carried.idle);
    if (carried.offset === offset) return carried.hash;
    carried.hash.drop();
    return undefined;
  }

  private async finish(row: TusUploadRow, hash: RunningHash | undefined): Promise<FileRow> {
    const target: ResumableTarget = { storageKey: row.storageKey, wrappedKey: row.wrappedKey, length: row.length };
    const { digest, head } = await this.store.complete(target, row.segments, hash, SNIFF_BYTES);
    const author = { accountId: row.authorId ?? row.ownerId, via: null };
    if (row.replacesFileId !== null) {
      return this.fileUploads.commitReplacement(
        row.ownerId,
        row.replacesFileId,
        {
          size: row.length,
          ...digest,
          storageKey: row.storageKey,
          wrappedKey: row.wrappedKey,
          contentType: await detectContentType(head, row.filename),
        },
        author,
        row.id,
      );
    }
    const file = await this.fileUploads.commitStored({
      ownerId: row.ownerId,
      folderId: row.folderId,
      filename: row.filename,
      storageKey: row.storageKey,
      size: row.length,
      ...digest,
      wrappedKey: row.wrappedKey,
      contentType: await detectContentType(head, row.filename),
      uploadId: row.id,
      author,
    });
    if (row.dropLinkId) await this.observer?.finished(row, file);
    return file;
  }

  private async forget(row: TusUploadRow): Promise<void> {
    this.takeHash(row.id, Number.NaN);
    if (row.fileId === null) {
      // Deletion is queued before the row goes: a crash between the two leaves a row the next purge takes again.
      await this.jobs.enqueue(JOB.blobDelete, { keys: this.store.storedKeys(row, row.segments) }, { lane: row.ownerId });
    }
    await this.uploads.delete(row.id);
    if (row.fileId === null && row.dropLinkId) await this.observer?.abandoned(row);
  }
}

/** The owner's file an upload may replace: an active one; anything else answers as a foreign id would. */
async function replaceableFile(files: Pick<FileRepository, 'findOwned'>, ownerId: string, fileId: string): Promise<FileRow> {
  const file = await files.findOwned(ownerId, fileId);
  if (!file || file.trashedAt !== null) throw new NotFoundError('FILE_NOT_FOUND', 'File not found');
  return file;
}

/**
 * All of an upload's bytes are stored and recorded (the last piece counted as a segment; an empty
 * upload has none until its one piece) but its file was never made.
 */
function isStranded(row: TusUploadRow): boolean {
  return row.fileId === null && row.offset === row.length && row.segments > 0;
}
