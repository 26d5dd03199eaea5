import type { Readable } from 'node:stream';

/** Inclusive byte range, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where stored bytes live (local disk or an S3-compatible object store). Keys are opaque,
 * URL-safe strings chosen by the caller. No code outside `storage/` knows which driver runs.
 */
export interface BlobStore {
  /**
   * Stores the stream under `key`. The key becomes visible only once every byte is durable;
   * if the stream errors or the write fails, nothing is left under `key` or anywhere else.
   */
  put(key: string, body: Readable): Promise<{ size: number }>;
  /** The stored bytes, or only `range` of them. Throws BlobNotFoundError when absent. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /**
   * A small object whole, in one read and one Buffer, where the store can do that cheaply (local
   * disk): the first `expectedSize + 1` bytes at most, so an object longer than expected still
   * shows. Throws BlobNotFoundError when absent.
   */
  readWhole?(key: string, expectedSize: number): Promise<Buffer>;
  /** Size of the stored object, or null when absent. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the object; removing an absent key is not an error. */
  delete(key: string): Promise<void>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}

/**
 * A store that can grow one object in place, piece by piece (local disk): a resumable upload
 * then lands where it will stay, and completing it is a rename rather than a copy of every byte.
 */
export interface GrowableBlobStore extends BlobStore {
  /**
   * Writes the stream into `key` from byte `position` on, first cutting off anything stored past
   * it; `position` 0 starts the object anew. Every byte written is durable when this resolves.
   */
  writeAt(key: string, position: number, body: Readable): Promise<{ size: number }>;
  /** Makes the object `from` visible as `to`, atomically and durably; `from` is gone after. */
  promote(from: string, to: string): Promise<void>;
}

export function isGrowable(store: BlobStore): store is GrowableBlobStore {
  return 'writeAt' in store && 'promote' in store;
}

/**
 * A body whose pieces a store may hand back once it has written them and holds them no more, so
 * the producer refills them instead of allocating new ones. A store that keeps pieces longer (to
 * retry a request) simply never hands them back.
 */
export interface RecyclingBody {
  recycle(piece: Buffer): void;
}

export function isRecycling(body: object): body is RecyclingBody {
  return typeof (body as Partial<RecyclingBody>).recycle === 'function';
}

/** One stored object as a listing sees it. */
export interface StoredObject {
  key: string;
  /** Stored (not plaintext) size in bytes. */
  size: number;
  /** Epoch ms of the last write: how an integrity check tells a stray from an upload in flight. */
  modifiedAt: number;
}

/**
 * A store that can enumerate its objects, which an integrity check needs to find bytes no row
 * refers to. Apart from BlobStore so test doubles of the plain store need not implement it.
 */
export interface ListableBlobStore extends BlobStore {
  /**
   * Every object with a valid key, in an order stable across calls; `after` resumes past a key an
   * earlier listing yielded. Objects written or removed meanwhile may or may not appear.
   */
  list(options?: { after?: string }): AsyncIterable<StoredObject>;
}

export function isListable(store: BlobStore): store is ListableBlobStore {
  return typeof (store as Partial<ListableBlobStore>).list === 'function';
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No stored object ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

/** Refused because the plaintext went past the allowed size; nothing was kept. */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Upload exceeds ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

/** Stored bytes failed authentication (tampered or truncated): never returned as data. */
export class BlobIntegrityError extends Error {
  constructor(readonly key: string) {
    super(`Stored object ${key} failed its integrity check`);
    this.name = 'BlobIntegrityError';
  }
}

export interface EncryptedWriteResult {
  /** Plaintext size in bytes. */
  size: number;
  /** Hex SHA-256 of the plaintext. */
  sha256: string;
  /** CRC-32 of the plaintext, as a zip entry records it. */
  crc32: number;
  /** The per-file data key, wrapped (encrypted) by the master key; stored with the file row. */
  wrappedKey: string;
}

export interface EncryptedWriteOptions {
  /** Past this many plaintext bytes the write fails with BlobTooLargeError. */
  maxBytes?: number;
  /** Sees each piece of the plaintext as it is read, before it is sealed; it may keep it, not change it. */
  onBytes?: (bytes: Buffer) => void;
  /**
   * The caller owns `plaintext`: a failed write stops reading it but leaves it open (an HTTP
   * request whose error answer must still reach the client), rather than destroying it.
   */
  keepSource?: boolean;
}

/**
 * Encryption at rest over any BlobStore: AES-256-GCM in fixed-size chunks with a per-file
 * data key wrapped by the master key, so a range read decrypts only the chunks it touches.
 */
export interface EncryptedStore {
  /**
   * Encrypts and stores a plaintext stream. `maxBytes` caps the plaintext: past it the write
   * fails with BlobTooLargeError. On any failure (including the source stream erroring, i.e.
   * an aborted upload) nothing is left in the store.
   */
  write(key: string, plaintext: Readable, options?: EncryptedWriteOptions): Promise<EncryptedWriteResult>;
  /**
   * Plaintext bytes of a stored object (whole, or an inclusive range of the plaintext).
   * `size` is the plaintext size recorded at write. The stream errors with BlobIntegrityError
   * if stored bytes were altered or truncated; it never yields unauthenticated bytes.
   */
  read(key: string, wrappedKey: string, size: number, range?: ByteRange): Promise<Readable>;
  /**
   * As `read`, as the plaintext pieces themselves: a reader that is itself a generator (the zip)
   * pulls them with one stream layer fewer per piece. Ending the iteration early closes the object;
   * a generator never begun holds it open, so ask for the first piece at once.
   */
  pieces(key: string, wrappedKey: string, size: number, range?: ByteRange): Promise<AsyncGenerator<Buffer>>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}
