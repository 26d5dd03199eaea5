import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { assertValidRange } from './blob-key.js';
import { BlobIntegrityError, type BlobStore, type ByteRange, type EncryptedStore, type EncryptedWriteResult } from './blob-store.js';
import { openChunks, PlaintextTally, sealChunks, type OpenPlan } from './chunk-cipher.js';
import { assertChunkSize, ChunkLayout, DEFAULT_CHUNK_SIZE, encodeHeader } from './chunk-format.js';
import { assertMasterKey, unwrapDataKey, wrapDataKey } from './key-wrap.js';

export interface EncryptedStoreOptions {
  /** Plaintext bytes per sealed chunk: the unit a range read fetches and decrypts. */
  chunkSize?: number;
}

/** EncryptedStore over any BlobStore; the stored format is described in chunk-format.ts. */
export class ChunkedEncryptedStore implements EncryptedStore {
  private readonly chunkSize: number;

  constructor(
    private readonly inner: BlobStore,
    private readonly masterKey: Buffer,
    options: EncryptedStoreOptions = {},
  ) {
    assertMasterKey(masterKey);
    this.chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    assertChunkSize(this.chunkSize);
  }

  async write(key: string, plaintext: Readable, options: { maxBytes?: number } = {}): Promise<EncryptedWriteResult> {
    const dataKey = { key: randomBytes(32), chunkSize: this.chunkSize };
    const tally = new PlaintextTally(options.maxBytes);
    const sealed = sealChunks(plaintext, dataKey.key, encodeHeader(this.chunkSize), this.chunkSize, tally);
    let stored: { size: number };
    try {
      stored = await this.inner.put(key, Readable.from(sealed, { objectMode: false }));
    } catch (err) {
      plaintext.destroy();
      // The store reports its own side of the failure; the cause is the source or the cap.
      throw tally.failure ?? err;
    }
    const expected = new ChunkLayout(this.chunkSize, tally.size).storedSize;
    if (stored.size !== expected) {
      await this.inner.delete(key);
      throw new Error(`Stored ${stored.size} bytes for ${key}, expected ${expected}`);
    }
    return { size: tally.size, sha256: tally.sha256(), wrappedKey: wrapDataKey(this.masterKey, dataKey) };
  }

  async read(key: string, wrappedKey: string, size: number, range?: ByteRange): Promise<Readable> {
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
      stored = await this.inner.get(key);
    }
    return Readable.from(openChunks(stored, plan), { objectMode: false });
  }

  async delete(key: string): Promise<void> {
    await this.inner.delete(key);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }
}
