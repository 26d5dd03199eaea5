import { sealInPlace, type SealKey } from './chunk-cipher.js';
import { ContentHasher, type ContentDigest } from './content-digest.js';
import type { HashJob, HashPool } from './hash-pool.js';

/** The digests of bytes fed in order over many requests (a resumable upload), read once at the end. */
export interface RunningHash {
  /** Adds bytes; the caller may reuse its buffer once this resolves. */
  update(bytes: Buffer): Promise<void>;
  /**
   * Adds the `length` plaintext bytes of `batch`, which lies in its stored layout from chunk
   * `firstIndex` on, and seals it in place (see `sealInPlace`). The batch is this hash's until it
   * comes back sealed in the answer (with its stored length); it may be another Buffer over the
   * same memory. Calls may overlap; they are done in the order made.
   */
  seal(key: SealKey, firstIndex: number, batch: Buffer, length: number, isFinal: boolean): Promise<Sealed>;
  /** The digests of everything fed; the hash is spent. */
  digest(): Promise<ContentDigest>;
  /** Abandons it (its upload failed a piece or went quiet). */
  drop(): void;
}

export interface Sealed {
  batch: Buffer;
  stored: number;
}

/** Batches a pooled hash may have on the worker at once: bounds its memory, keeps the worker busy. */
const MAX_IN_FLIGHT = 4;

/** Hashes on the calling thread: when the pool has no thread to spare. */
class LocalHash implements RunningHash {
  private readonly hasher = new ContentHasher();

  update(bytes: Buffer): Promise<void> {
    this.hasher.update(bytes);
    return Promise.resolve();
  }

  seal(key: SealKey, firstIndex: number, batch: Buffer, length: number, isFinal: boolean): Promise<Sealed> {
    const stored = sealInPlace(key, firstIndex, batch, length, isFinal, (plaintext) => this.hasher.update(plaintext));
    return Promise.resolve({ batch, stored });
  }

  digest(): Promise<ContentDigest> {
    return Promise.resolve(this.hasher.digest());
  }

  drop(): void {}
}

/**
 * Hashes on the shared worker pool, so the request thread only moves bytes: a batch to seal is
 * hashed and sealed there in one go; bytes only to hash are copied into a buffer of its own.
 */
class PooledHash implements RunningHash {
  private inFlight = 0;
  private readonly spare: Buffer[] = [];
  /** What to do with each batch the worker sends back, in the order they were sent. */
  private readonly replies: { done: (buffer: Buffer, stored: number | undefined) => void; fail?: (error: Error) => void }[] = [];
  private wake: (() => void) | undefined;
  private failure: Error | null = null;
  private readonly result: Promise<ContentDigest>;
  private settle!: { resolve: (digest: ContentDigest) => void; reject: (error: Error) => void };
  private readonly job: HashJob | null;

  constructor(pool: HashPool) {
    this.result = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    // A dropped hash's digest is never asked for: an unobserved rejection is not a fault.
    this.result.catch(() => undefined);
    this.job = pool.open({
      hashed: (buffer, digest, stored) => {
        this.inFlight -= 1;
        this.replies.shift()?.done(buffer, stored);
        if (digest !== undefined) this.settle.resolve(digest);
        this.signal();
      },
      failed: (error) => this.fail(error),
    });
  }

  get usable(): boolean {
    return this.job !== null;
  }

  async update(bytes: Buffer): Promise<void> {
    await this.room();
    const buffer = this.bufferFor(bytes.length);
    bytes.copy(buffer);
    this.send(buffer, bytes.length, false, { done: (back) => this.spare.push(back) });
  }

  async seal(key: SealKey, firstIndex: number, batch: Buffer, length: number, isFinal: boolean): Promise<Sealed> {
    await this.room();
    // A worker that fails answers no more batches: the caller hears of it instead of waiting.
    return new Promise<Sealed>((resolve, reject) =>
      this.send(
        batch,
        length,
        false,
        { done: (back, stored) => resolve({ batch: back, stored: stored ?? 0 }), fail: reject },
        { ...key, firstIndex, isFinal },
      ),
    );
  }

  digest(): Promise<ContentDigest> {
    if (!this.failure) this.send(this.bufferFor(0), 0, true, { done: (back) => this.spare.push(back) });
    return this.result;
  }

  drop(): void {
    this.job?.drop();
    this.fail(new Error('The running hash was dropped'));
  }

  private async room(): Promise<void> {
    while (this.inFlight >= MAX_IN_FLIGHT && !this.failure) await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.failure) throw this.failure;
  }

  private send(
    buffer: Buffer,
    length: number,
    isFinal: boolean,
    reply: PooledHash['replies'][number],
    seal?: Parameters<HashJob['update']>[3],
  ): void {
    this.inFlight += 1;
    this.replies.push(reply);
    this.job!.update(buffer, length, isFinal, seal);
  }

  private bufferFor(length: number): Buffer {
    const index = this.spare.findIndex((b) => b.length >= length);
    if (index >= 0) return this.spare.splice(index, 1)[0]!;
    // A whole ArrayBuffer of its own: it is handed to the worker and back.
    return Buffer.allocUnsafeSlow(Math.max(length, 1));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.settle.reject(this.failure);
    for (const pending of this.replies.splice(0)) pending.fail?.(this.failure);
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/**
 * Running hashes on the shared pool, at most `maxPooled` at once (each holds a pool task for as
 * long as its upload runs); beyond that, and without a pool, they hash on the calling thread.
 */
export class RunningHashes {
  private pooled = 0;

  constructor(
    private readonly pool: HashPool | null,
    private readonly maxPooled = 16,
  ) {}

  start(): RunningHash {
    if (this.pool && this.pooled < this.maxPooled) {
      const hash = new PooledHash(this.pool);
      if (hash.usable) {
        this.pooled += 1;
        return this.released(hash);
      }
    }
    return new LocalHash();
  }

  /** Frees the pooled slot once the hash is read or dropped, whichever comes first. */
  private released(hash: PooledHash): RunningHash {
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      this.pooled -= 1;
    };
    return {
      update: (bytes) => hash.update(bytes),
      seal: (key, firstIndex, batch, length, isFinal) => hash.seal(key, firstIndex, batch, length, isFinal),
      digest: () => hash.digest().finally(release),
      drop: () => (hash.drop(), release()),
    };
  }
}
