import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { FileRow } from '../db/repositories/file.repository.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { nameKeyOf, sanitizeName } from '../domain/names.js';
import { DomainError } from '../domain/errors.js';
import { SNIFF_BYTES, detectContentType, mediaKindOf } from '../media/mime.js';
import { newId } from '../security/ids.js';
import { BlobTooLargeError, type EncryptedStore } from '../storage/blob-store.js';
import type { Clock } from './clock.js';
import type { FolderService } from './folder.service.js';

/** Keeps the first bytes of a stream for content sniffing while passing everything through. */
class HeadCapture extends Transform {
  private parts: Buffer[] = [];
  private captured = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.captured < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.captured);
      this.parts.push(part);
      this.captured += part.length;
    }
    done(null, chunk);
  }

  get head(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export interface StoreFileInput {
  ownerId: string;
  filename: string;
  /** Folder id or null for the root; already checked to be the owner's active folder. */
  folderId: string | null;
  body: Readable;
}

export type FileStoredListener = (file: FileRow) => void;

/**
 * Streams an upload through encryption into storage, then commits the row. The row exists only
 * once the bytes are durable; any failure (an aborted client included) leaves neither row nor bytes.
 */
export class UploadService {
  private readonly listeners: FileStoredListener[] = [];

  constructor(
    private readonly uow: UnitOfWork,
    readonly folders: FolderService,
    private readonly store: EncryptedStore,
    private readonly clock: Clock,
    private readonly maxUploadBytes: number | null,
  ) {}

  /** Called after every committed upload (background jobs hook in here). */
  onFileStored(listener: FileStoredListener): void {
    this.listeners.push(listener);
  }

  async storeFile(input: StoreFileInput): Promise<FileRow> {
    const filename = sanitizeName(input.filename);
    const storageKey = newId();
    const head = new HeadCapture();
    input.body.on('error', (err) => head.destroy(err));
    let written;
    try {
      written = await this.store.write(storageKey, input.body.pipe(head), this.maxUploadBytes ? { maxBytes: this.maxUploadBytes } : {});
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw new DomainError('PAYLOAD_TOO_LARGE', `File is larger than ${err.maxBytes} bytes`);
      throw err;
    }
    const contentType = await detectContentType(head.head, filename);
    const now = this.clock.now();
    const row: FileRow = {
      id: newId(),
      ownerId: input.ownerId,
      folderId: input.folderId,
      filename,
      nameKey: nameKeyOf(filename),
      size: written.size,
      contentType,
      mediaKind: mediaKindOf(contentType),
      sha256: written.sha256,
      storageKey,
      wrappedKey: written.wrappedKey,
      uploadedAt: now,
      updatedAt: now,
      trashedAt: null,
      trashedVia: null,
      linkType: null,
      linkToken: null,
      thumbnailId: null,
    };
    try {
      await this.uow.repos.files.insert(row);
    } catch (err) {
      await this.store.delete(storageKey).catch(() => undefined);
      throw err;
    }
    for (const listener of this.listeners) listener(row);
    return row;
  }
}
