import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { WorkerPool, compiledWorker } from '../workers/pool.js';
import type { ContentDigest } from './content-digest.js';
import type { HashBatch, HashedBatch, SealOrder } from './hash.worker.js';

export interface HashJobListener {
  /**
   * A batch was hashed and its buffer is back: sealed in place when asked (its first `stored` bytes
   * are then the stored form), else ready to be refilled. `digest` is set after the final one.
   */
  hashed(buffer: Buffer, digest: ContentDigest | undefined, stored: number | undefined): void;
  /** The job cannot go on (its worker stopped); no further calls follow. */
  failed(error: Error): void;
}

/** Uploads one hashing thread serves at once: each is a stream of batches, not CPU held. */
const STREAMS_PER_THREAD = 64;

/** The digests of one stream, computed by a pool task from batches handed over in order. */
export class HashJob {
  private ended = false;

  constructor(private readonly port: MessagePort) {}

  /**
   * Hashes the first `length` bytes of `buffer`, which moves to the worker (it is unusable here
   * until it comes back through the listener). With `seal`, `buffer` holds `length` plaintext bytes
   * in their stored layout and comes back sealed; `hash: false` then leaves them out of the digests.
   * After the final batch the listener gets the digests.
   */
  update(buffer: Buffer, length: number, isFinal: boolean, seal?: SealOrder, hash = true): void {
    if (this.ended) throw new Error('The hash job was dropped');
    if (buffer.byteOffset !== 0 || buffer.length !== buffer.buffer.byteLength)
      throw new RangeError('Only a whole ArrayBuffer can be handed over');
    const batch: HashBatch = seal ? { data: buffer, length, isFinal, seal, hash } : { data: buffer, length, isFinal };
    this.port.postMessage(batch, [buffer.buffer as ArrayBuffer]);
  }

  /** Abandons the job: its remaining replies are ignored and its task ends. */
  drop(): void {
    if (this.ended) return;
    this.ended = true;
    this.port.postMessage({ drop: true } satisfies HashBatch);
    this.port.close();
  }

  /** Whether the job is over (dropped, or its digest arrived): nothing more reaches its listener. */
  get isEnded(): boolean {
    return this.ended;
  }

  /** Called once the digest arrived. */
  finished(): void {
    this.ended = true;
    this.port.close();
  }
}

/**
 * Computes the digests of uploads, and seals their batches, on the shared worker pool, so that work
 * runs on another core beside the request thread reading the body and storing what was sealed. A stream stays on one thread (a hash is sequential); threads start
 * with the first stream and end when idle.
 */
export class HashPool {
  private readonly pool: WorkerPool | null;
  private closed = false;

  constructor(readonly size: number) {
    this.pool =
      size < 1
        ? null
        : new WorkerPool({
            file: compiledWorker('storage/hash.worker.js'),
            threads: size,
            tasksPerThread: STREAMS_PER_THREAD,
            idleTimeoutMs: 30_000,
          });
  }

  /** A new job, or null when the pool has no threads or is closed (the caller then hashes itself). */
  open(listener: HashJobListener): HashJob | null {
    if (this.closed || !this.pool) return null;
    const { port1, port2 } = new MessageChannel();
    const job = new HashJob(port1);
    port1.on('message', (reply: HashedBatch) => {
      if (reply.digest !== undefined) job.finished();
      listener.hashed(Buffer.from(reply.data.buffer, reply.data.byteOffset, reply.data.byteLength), reply.digest, reply.stored);
    });
    this.pool.run<ContentDigest | null>({ port: port2 }, { transfer: [port2] }).then(
      () => undefined,
      (err: unknown) => {
        if (job.isEnded) return;
        job.drop();
        listener.failed(this.closed ? new Error('The encrypted store was closed') : err instanceof Error ? err : new Error(String(err)));
      },
    );
    return job;
  }

  /** Threads running now. */
  get threads(): number {
    return this.pool?.threads ?? 0;
  }

  /** Stops every thread; jobs still running fail. Later streams are hashed on the calling thread. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.close();
  }
}
