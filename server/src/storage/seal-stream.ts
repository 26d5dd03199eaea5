import { Readable } from 'node:stream';
import { BlobTooLargeError } from './blob-store.js';
import { sealChunks, type SealKey } from './chunk-cipher.js';
import { ContentHasher, type ContentDigest } from './content-digest.js';
import type { HashJob, HashPool } from './hash-pool.js';

export interface SealingOptions {
  seal: SealKey;
  /** Past this many plaintext bytes the stream fails with BlobTooLargeError. */
  maxBytes?: number;
  /** Plaintext bytes sealed at a time: a whole number of chunks. */
  batchBytes: number;
  /** Batches being hashed by a worker at once, at most. */
  maxHashing: number;
  /** Sealed batches the consumer has not taken yet, at most, before reading stops. */
  maxAhead: number;
  /** Hashes files bigger than one batch; null hashes them on this thread. */
  hashPool: HashPool | null;
  /** Sees each piece of plaintext as it is read, before it is sealed. */
  onBytes?: (bytes: Buffer) => void;
  /** The source is the caller's: stopping early leaves it open instead of destroying it. */
  keepSource?: boolean;
}

/**
 * The stored form of a plaintext stream: the header, then the sealed chunks. Plaintext is gathered
 * into batches of whole chunks and each batch is sealed here. A file bigger than one batch is hashed
 * by a pool worker, batch by batch, while the next batch is read and sealed, so hashing and encryption
 * use two cores; a smaller one is hashed here, which costs less than a round trip. Reading stops
 * while the consumer is `maxAhead` batches behind or the worker `maxHashing` batches behind, so
 * memory stays bounded whatever the file size and a slow consumer slows the source down.
 */
export class SealingStream extends Readable {
  /** Plaintext bytes read so far. */
  size = 0;
  /** The plaintext's digests, once the stream has ended. */
  digest: ContentDigest | undefined;
  /** Why the stream failed, when the cause was the source or the size cap rather than the consumer. */
  failure: unknown;

  private staging: Buffer | undefined;
  private filled = 0;
  private nextIndex = 0;
  private readonly spare: Buffer[] = [];
  /** Undecided until the first batch is sealed; null when hashing happens on this thread. */
  private job: HashJob | null | undefined;
  private hasher: ContentHasher | undefined;
  private hashing = 0;
  private started = false;
  private wake: (() => void) | undefined;

  private readonly listener = {
    hashed: (buffer: Buffer, digest: ContentDigest | undefined): void => {
      this.hashing -= 1;
      if (this.destroyed) return;
      this.spare.push(buffer);
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

  private async pump(): Promise<void> {
    const { maxBytes, batchBytes, onBytes, keepSource } = this.options;
    const pieces = (keepSource ? this.source.iterator({ destroyOnReturn: false }) : this.source) as AsyncIterable<Buffer | string>;
    try {
      for await (const piece of pieces) {
        const input = typeof piece === 'string' ? Buffer.from(piece) : piece;
        this.size += input.length;
        if (maxBytes !== undefined && this.size > maxBytes) throw new BlobTooLargeError(maxBytes);
        onBytes?.(input);
        for (let offset = 0; offset < input.length;) {
          // A full batch goes only once more bytes arrive: only then is it known not to hold the final chunk.
          if (this.filled === batchBytes) await this.flush(false);
          if (this.destroyed) return;
          this.staging = this.roomFor(input.length - offset);
          const copied = input.copy(this.staging, this.filled, offset);
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
    const staging = this.staging ?? Buffer.alloc(0);
    const length = this.filled;
    const plaintext = staging.subarray(0, length);
    // The records are pushed as they are (a disk store gathers them into one write): joining them
    // would allocate and copy every batch once more.
    for (const record of sealChunks(seal, this.nextIndex, plaintext, isFinal)) this.push(record);
    this.nextIndex += length / seal.chunkSize;
    this.filled = 0;

    if (this.job === undefined) this.job = isFinal ? null : (hashPool?.open(this.listener) ?? null);
    if (this.job === null) {
      this.hasher ??= new ContentHasher();
      this.hasher.update(plaintext);
      if (isFinal) this.finish(this.hasher.digest());
    } else {
      this.staging = undefined;
      this.hashing += 1;
      this.job.update(staging, length, isFinal);
    }
    if (!isFinal) await this.until(() => this.hashing < maxHashing && this.readableLength < this.readableHighWaterMark);
  }

  /**
   * The staging buffer, grown when full. Until the first batch is sealed it is only as big as the
   * bytes read so far (doubling as they come), so a small file costs a buffer of its own size
   * rather than a batch's: a folder of thousands of small files otherwise allocated a whole batch
   * apiece, and the garbage collector paused the process to give that memory back.
   */
  private roomFor(wanted: number): Buffer {
    const { batchBytes } = this.options;
    const staging = this.staging;
    if (staging !== undefined && this.filled < staging.length) return staging;
    const spare = staging === undefined ? this.spare.pop() : undefined;
    if (spare !== undefined) return spare;
    const size = this.nextIndex > 0 ? batchBytes : Math.min(batchBytes, Math.max(this.filled + wanted, 2 * this.filled));
    const grown = Buffer.allocUnsafeSlow(size);
    staging?.copy(grown, 0, 0, this.filled);
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
