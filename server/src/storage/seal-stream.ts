import { Readable } from 'node:stream';
import { uploadBuffers } from '../workers/young-collector.js';
import { BlobTooLargeError, type RecyclingBody } from './blob-store.js';
import { sealInPlace, sealedLength, storedOffsetOf, type SealKey } from './chunk-cipher.js';
import { TAG_LENGTH } from './chunk-format.js';
import { ContentHasher, type ContentDigest } from './content-digest.js';
import type { HashJob, HashPool } from './hash-pool.js';

export interface SealingOptions {
  seal: SealKey;
  /** Past this many plaintext bytes the stream fails with BlobTooLargeError. */
  maxBytes?: number;
  /** Plaintext bytes sealed at a time: a whole number of chunks. */
  batchBytes: number;
  /** Batches being hashed and sealed by a worker at once, at most. */
  maxHashing: number;
  /** Sealed batches the consumer has not taken yet, at most, before reading stops. */
  maxAhead: number;
  /** Hashes and seals files bigger than one batch; null does both on this thread. */
  hashPool: HashPool | null;
  /** Sees each piece of plaintext as it is read, before it is sealed. */
  onBytes?: (bytes: Buffer) => void;
  /** The source is the caller's: stopping early leaves it open instead of destroying it. */
  keepSource?: boolean;
}

/**
 * The stored form of a plaintext stream: the header, then the sealed chunks. Plaintext is copied
 * into batches of whole chunks laid out as they are stored (a tag's room after each chunk), and
 * each batch is sealed in place and pushed as one buffer. A file bigger than one batch is hashed
 * and sealed by a pool worker, batch by batch, while this thread reads the next batch and the
 * consumer stores the one before, so this thread only copies bytes; a smaller one is done here,
 * which costs less than a round trip. Reading stops while the consumer is `maxAhead` batches
 * behind or the worker `maxHashing` batches behind, so memory stays bounded whatever the file size
 * and a slow consumer slows the source down. A consumer that hands written batches back through
 * `recycle` has them refilled instead of new ones allocated.
 */
export class SealingStream extends Readable implements RecyclingBody {
  /** Plaintext bytes read so far. */
  size = 0;
  /** The plaintext's digests, once the stream has ended. */
  digest: ContentDigest | undefined;
  /** Why the stream failed, when the cause was the source or the size cap rather than the consumer. */
  failure: unknown;

  private staging: Buffer | undefined;
  /** Plaintext bytes in `staging`. */
  private filled = 0;
  private nextIndex = 0;
  private readonly spare: Buffer[] = [];
  /** Batch buffers of this stream's own (full size): only these are taken back by `recycle`. */
  private readonly owned = new WeakSet<ArrayBufferLike>();
  /** Undecided until the first batch is sealed; null when hashing happens on this thread. */
  private job: HashJob | null | undefined;
  private hasher: ContentHasher | undefined;
  private hashing = 0;
  private started = false;
  private wake: (() => void) | undefined;

  private readonly listener = {
    hashed: (buffer: Buffer, digest: ContentDigest | undefined, stored: number | undefined): void => {
      this.hashing -= 1;
      if (this.destroyed) return;
      this.owned.add(buffer.buffer);
      this.push(buffer.subarray(0, stored));
      if (digest !== undefined) this.finish(digest);
      this.signal();
    },
    failed: (error: Error): void => {
      this.destroy(error);
    },
  };

  constructor(
    private readonly source: Readable,
    private readonly options: SealingOptions,
  ) {
    super({ highWaterMark: options.batchBytes * options.maxAhead });
  }

  override _read(): void {
    if (this.started) return this.signal();
    this.started = true;
    this.push(this.options.seal.header);
    void this.pump();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.job?.drop();
    if (!this.source.readableEnded && !this.options.keepSource) this.source.destroy();
    this.signal();
    callback(error);
  }

  /** Takes back a batch this stream pushed once the consumer has stored it and holds it no more. */
  recycle(piece: Buffer): void {
    const { batchBytes, seal, maxHashing, maxAhead } = this.options;
    // A smaller one (a small file's) is not worth keeping.
    if (!this.owned.has(piece.buffer) || piece.buffer.byteLength !== storedOffsetOf(seal.chunkSize, batchBytes)) return;
    if (this.spare.length >= maxHashing + maxAhead) return;
    this.owned.delete(piece.buffer);
    this.spare.push(Buffer.from(piece.buffer, 0, piece.buffer.byteLength));
  }

  private async pump(): Promise<void> {
    const { maxBytes, batchBytes, onBytes, keepSource, seal } = this.options;
    const chunkSize = seal.chunkSize;
    const pieces = (keepSource ? this.source.iterator({ destroyOnReturn: false }) : this.source) as AsyncIterable<Buffer | string>;
    try {
      for await (const piece of pieces) {
        const input = typeof piece === 'string' ? Buffer.from(piece) : piece;
        this.size += input.length;
        uploadBuffers.add(input.length);
        if (maxBytes !== undefined && this.size > maxBytes) throw new BlobTooLargeError(maxBytes);
        onBytes?.(input);
        for (let offset = 0; offset < input.length;) {
          // A full batch goes only once more bytes arrive: only then is it known not to hold the final chunk.
          if (this.filled === batchBytes) await this.flush(false);
          if (this.destroyed) return;
          // Up to the end of the current chunk: the next one starts after its tag's room.
          const wanted = Math.min(input.length - offset, chunkSize - (this.filled % chunkSize), batchBytes - this.filled);
          const staging = (this.staging = this.roomFor(wanted));
          const copied = input.copy(staging, storedOffsetOf(chunkSize, this.filled), offset, offset + wanted);
          this.filled += copied;
          offset += copied;
        }
      }
      await this.flush(true);
    } catch (err) {
      if (this.destroyed) return;
      this.failure = err;
      this.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private async flush(isFinal: boolean): Promise<void> {
    if (this.destroyed) return;
    const { seal, hashPool, maxHashing } = this.options;
    const length = this.filled;
    const staging = this.staging ?? Buffer.alloc(sealedLength(seal.chunkSize, 0, true));
    const firstIndex = this.nextIndex;
    this.nextIndex += length / seal.chunkSize;
    this.filled = 0;
    this.staging = undefined;

    if (this.job === undefined) this.job = isFinal ? null : (hashPool?.open(this.listener) ?? null);
    if (this.job === null) {
      const hasher = (this.hasher ??= new ContentHasher());
      const stored = sealInPlace(seal, firstIndex, staging, length, isFinal, (plaintext) => hasher.update(plaintext));
      this.owned.add(staging.buffer);
      this.push(staging.subarray(0, stored));
      if (isFinal) this.finish(hasher.digest());
    } else {
      this.hashing += 1;
      this.job.update(staging, length, isFinal, { ...seal, firstIndex, isFinal });
    }
    if (!isFinal) await this.until(() => this.hashing < maxHashing && this.readableLength < this.readableHighWaterMark);
  }

  /**
   * The staging buffer, grown when full. Until the first batch is sealed it is only as big as the
   * bytes read so far (doubling as they come), so a small file costs a buffer of its own size
   * rather than a batch's: a folder of thousands of small files otherwise allocated a whole batch
   * apiece, and the garbage collector paused the process to give that memory back. It always has
   * room for the tags of the chunks it holds and of the one being filled.
   */
  private roomFor(wanted: number): Buffer {
    const { batchBytes, seal } = this.options;
    const chunkSize = seal.chunkSize;
    const staging = this.staging;
    const needed = storedOffsetOf(chunkSize, this.filled) + wanted + TAG_LENGTH;
    if (staging !== undefined && needed <= staging.length) return staging;
    const spare = staging === undefined ? this.spare.pop() : undefined;
    if (spare !== undefined) return spare;
    const full = storedOffsetOf(chunkSize, batchBytes);
    const plaintext = this.nextIndex > 0 ? batchBytes : Math.min(batchBytes, Math.max(this.filled + wanted, 2 * this.filled));
    const size = plaintext === batchBytes ? full : Math.min(full, storedOffsetOf(chunkSize, plaintext) + TAG_LENGTH);
    const grown = Buffer.allocUnsafeSlow(size);
    staging?.copy(grown, 0, 0, storedOffsetOf(chunkSize, this.filled));
    return grown;
  }

  private finish(digest: ContentDigest): void {
    this.digest = digest;
    this.push(null);
  }

  private async until(ready: () => boolean): Promise<void> {
    while (!ready() && !this.destroyed) await new Promise<void>((resolve) => (this.wake = resolve));
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
