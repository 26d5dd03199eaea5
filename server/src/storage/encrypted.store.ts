import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Readable } from 'node:stream';
import { assertValidRange } from './blob-key.js';
import {
  BlobIntegrityError,
  type BlobStore,
  type ByteRange,
  type EncryptedStore,
  type EncryptedWriteOptions,
  type EncryptedWriteResult,
} from './blob-store.js';
import { openChunks, type OpenPlan } from './chunk-cipher.js';
import { assertChunkSize, ChunkLayout, DEFAULT_CHUNK_SIZE, encodeHeader } from './chunk-format.js';
import { HashPool } from './hash-pool.js';
import { assertMasterKey, unwrapDataKey, wrapDataKey } from './key-wrap.js';
import { SealingStream } from './seal-stream.js';

export interface EncryptedStoreOptions {
  /** Plaintext bytes per sealed chunk: the unit a range read fetches and decrypts. */
  chunkSize?: number;
  /**
   * Worker threads that compute the SHA-256 of uploads bigger than one batch and seal them, started
   * on first use; 0 does both on the calling thread. Defaults to one per core beyond the first (1 to 4).
   */
  hashWorkers?: number;
  /** Plaintext bytes sealed (by a hashing worker) at a time, rounded down to whole chunks. */
  batchBytes?: number;
}

const DEFAULT_BATCH_BYTES = 1024 * 1024;
/** Stored objects smaller than this are read whole, in one Buffer, by a store that can. */
const WHOLE_READ_BYTES = 2 * 1024 * 1024;
/** Batches of one upload at a hashing worker at once: one being hashed, one waiting. */
const BATCHES_HASHING = 2;
/** Batches of one upload sealed ahead of the inner store, so neither waits on the other. */
const BATCHES_AHEAD = 2;

/** EncryptedStore over any BlobStore; the stored format is described in chunk-format.ts. */
export class ChunkedEncryptedStore implements EncryptedStore {
  private readonly chunkSize: number;
  private readonly batchBytes: number;
  /** The hashing threads, shared with resumable uploads. */
  readonly hashPool: HashPool;

  constructor(
    private readonly inner: BlobStore,
    private readonly masterKey: Buffer,
    options: EncryptedStoreOptions = {},
  ) {
    assertMasterKey(masterKey);
    this.chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    assertChunkSize(this.chunkSize);
    this.batchBytes = this.chunkSize * Math.max(1, Math.floor((options.batchBytes ?? DEFAULT_BATCH_BYTES) / this.chunkSize));
    const hashWorkers = options.hashWorkers ?? Math.min(4, Math.max(1, availableParallelism() - 1));
    if (!Number.isSafeInteger(hashWorkers) || hashWorkers < 0) throw new RangeError('hashWorkers must be a whole number, 0 or more');
    this.hashPool = new HashPool(hashWorkers);
  }

  /** Hashing worker threads running now (they start with the first upload bigger than one batch). */
  get hashThreads(): number {
    return this.hashPool.threads;
  }

  async write(key: string, plaintext: Readable, options: EncryptedWriteOptions = {}): Promise<EncryptedWriteResult> {
    const dataKey = { key: randomBytes(32), chunkSize: this.chunkSize };
    const sealed = new SealingStream(plaintext, {
      seal: { key: dataKey.key, header: encodeHeader(this.chunkSize), chunkSize: this.chunkSize },
      maxBytes: options.maxBytes,
      onBytes: options.onBytes,
      keepSource: options.keepSource,
      batchBytes: this.batchBytes,
      maxHashing: BATCHES_HASHING,
      maxAhead: BATCHES_AHEAD,
      hashPool: this.hashPool,
    });
    let stored: { size: number };
    try {
      stored = await this.inner.put(key, sealed);
    } catch (err) {
      sealed.destroy();
      if (!options.keepSource) plaintext.destroy();
      // The store reports its own side of the failure; the cause is the source or the cap.
      throw sealed.failure ?? err;
    }
    const expected = new ChunkLayout(this.chunkSize, sealed.size).storedSize;
    if (stored.size !== expected || sealed.digest === undefined) {
      await this.inner.delete(key);
      throw new Error(`Stored ${stored.size} bytes for ${key}, expected ${expected}`);
    }
    return { size: sealed.size, ...sealed.digest, wrappedKey: wrapDataKey(this.masterKey, dataKey) };
  }

  async read(key: string, wrappedKey: string, size: number, range?: ByteRange): Promise<Readable> {
    return Readable.from(await this.pieces(key, wrappedKey, size, range), { objectMode: false });
  }

  async pieces(key: string, wrappedKey: string, size: number, range?: ByteRange): Promise<AsyncGenerator<Buffer>> {
    if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`Invalid plaintext size ${size}`);
    if (range) {
      assertValidRange(range);
      if (range.start >= size) throw new RangeError(`Range starts past the end (${range.start} of ${size} bytes)`);
    }
    const dataKey = unwrapDataKey(this.masterKey, wrappedKey);
    if (!dataKey) throw new BlobIntegrityError(key);
    const layout = new ChunkLayout(dataKey.chunkSize, size);
    const base = { blobKey: key, key: dataKey.key, header: encodeHeader(dataKey.chunkSize), layout };

    let plan: OpenPlan;
    let stored: Readable;
    if (range) {
      // As in HTTP, a range that runs past the end is clipped to it.
      const slice = { start: range.start, end: Math.min(range.end, size - 1) };
      const { first, last, stored: storedRange } = layout.locate(slice);
      plan = { ...base, first, last, startsWithHeader: false, slice };
      stored = await this.inner.get(key, storedRange);
    } else {
      // The whole object, unranged, so a stored object longer than it should be is noticed too.
      plan = { ...base, first: 0, last: layout.finalIndex, startsWithHeader: true, slice: { start: 0, end: size - 1 } };
      // A small one in one Buffer where the store can: a zip of many files pays for each stream.
      if (this.inner.readWhole && layout.storedSize < WHOLE_READ_BYTES)
        return openChunks([await this.inner.readWhole(key, layout.storedSize)], plan);
      stored = await this.inner.get(key);
    }
    return openChunks(stored, plan);
  }

  async delete(key: string): Promise<void> {
    await this.inner.delete(key);
  }

  async close(): Promise<void> {
    await this.hashPool.close();
    await this.inner.close();
  }
}
