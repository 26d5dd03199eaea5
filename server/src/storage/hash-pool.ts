import type { createHash, Hash } from 'node:crypto';
import { Worker, type MessagePort } from 'node:worker_threads';

/** Main thread → worker. A job's messages are handled in the order they were posted. */
type HashRequest = { type: 'update'; job: number; data: Uint8Array; length: number; isFinal: boolean } | { type: 'drop'; job: number };

/** Worker → main thread, one per 'update', in order: the buffer comes back to be refilled. */
interface HashReply {
  job: number;
  data: Uint8Array;
  sha256?: string;
}

/**
 * The worker's side: one SHA-256 state per job, fed the batches it is handed. It allocates nothing
 * per batch, so it never needs a garbage collection to stay small. It runs from source text (see
 * WORKER_SOURCE), so it uses nothing but its arguments.
 */
function serve(port: MessagePort, hashFor: typeof createHash): void {
  const jobs = new Map<number, Hash>();
  port.on('message', (request: HashRequest) => {
    if (request.type === 'drop') {
      jobs.delete(request.job);
      return;
    }
    const { job, data } = request;
    let hash = jobs.get(job);
    if (!hash) jobs.set(job, (hash = hashFor('sha256')));
    hash.update(data.subarray(0, request.length));
    let sha256: string | undefined;
    if (request.isFinal) {
      sha256 = hash.digest('hex');
      jobs.delete(job);
    }
    const reply: HashReply = { job, data, sha256 };
    port.postMessage(reply, [data.buffer as ArrayBuffer]);
  });
}

// Evaluated rather than loaded from a file, so the same code runs from the build and from sources.
const WORKER_SOURCE = `'use strict';
(${serve.toString()})(require('node:worker_threads').parentPort, require('node:crypto').createHash);
`;

export interface HashJobListener {
  /** A batch was hashed and its buffer can be refilled; `sha256` is set after the final one. */
  hashed(buffer: Buffer, sha256: string | undefined): void;
  /** The job cannot go on (its worker stopped); no further calls follow. */
  failed(error: Error): void;
}

class PooledWorker {
  readonly jobs = new Map<number, HashJobListener>();
  private readonly worker: Worker;
  private stopReason: Error | undefined;

  constructor(onExit: (worker: PooledWorker) => void) {
    // No inherited execArgv: a flag like --input-type=module would make the source an ES module.
    this.worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], name: 'nimbus-sha256' });
    // Idle, it does not keep the process alive; add() refs it while a job depends on it.
    this.worker.unref();
    this.worker.on('message', (reply: HashReply) => this.receive(reply));
    this.worker.on('error', (err) => (this.stopReason ??= err));
    this.worker.on('exit', () => {
      onExit(this);
      const error = this.stopReason ?? new Error('The hashing worker stopped');
      const listeners = [...this.jobs.values()];
      this.jobs.clear();
      for (const listener of listeners) listener.failed(error);
    });
  }

  add(job: number, listener: HashJobListener): void {
    if (this.jobs.size === 0) this.worker.ref();
    this.jobs.set(job, listener);
  }

  remove(job: number): boolean {
    const removed = this.jobs.delete(job);
    if (removed && this.jobs.size === 0) this.worker.unref();
    return removed;
  }

  post(request: HashRequest, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(request, transfer);
  }

  stop(reason: Error): Promise<number> {
    this.stopReason ??= reason;
    return this.worker.terminate();
  }

  private receive(reply: HashReply): void {
    const listener = this.jobs.get(reply.job);
    if (!listener) return;
    if (reply.sha256 !== undefined) this.remove(reply.job);
    listener.hashed(Buffer.from(reply.data.buffer, reply.data.byteOffset, reply.data.byteLength), reply.sha256);
  }
}

/** The SHA-256 of one stream, computed by a pool worker from batches handed over in order. */
export class HashJob {
  private dropped = false;

  constructor(
    private readonly worker: PooledWorker,
    private readonly id: number,
  ) {}

  /**
   * Hashes the first `length` bytes of `buffer`, which moves to the worker (it is unusable here
   * until it comes back through the listener). After the final batch the listener gets the digest.
   */
  update(buffer: Buffer, length: number, isFinal: boolean): void {
    if (this.dropped) throw new Error('The hash job was dropped');
    if (buffer.byteOffset !== 0 || buffer.length !== buffer.buffer.byteLength)
      throw new RangeError('Only a whole ArrayBuffer can be handed over');
    this.worker.post({ type: 'update', job: this.id, data: buffer, length, isFinal }, [buffer.buffer as ArrayBuffer]);
  }

  /** Abandons the job: its remaining replies are ignored and the worker forgets it. */
  drop(): void {
    if (this.dropped) return;
    this.dropped = true;
    if (this.worker.remove(this.id)) this.worker.post({ type: 'drop', job: this.id });
  }
}

/**
 * Long-lived worker threads that compute the SHA-256 of uploads, so hashing runs beside parsing and
 * encryption on another core. A job stays on one worker (a hash is sequential); a new job goes to an
 * idle worker, or to a new one while there are fewer than `size`, else to the least busy.
 */
export class HashPool {
  private readonly workers: PooledWorker[] = [];
  private lastJob = 0;
  private closed = false;

  constructor(readonly size: number) {}

  /** A new job, or null when the pool has no workers or is closed (the caller then hashes itself). */
  open(listener: HashJobListener): HashJob | null {
    if (this.closed || this.size < 1) return null;
    let target = this.workers.reduce<PooledWorker | undefined>((best, w) => (best && best.jobs.size <= w.jobs.size ? best : w), undefined);
    if (!target || (target.jobs.size > 0 && this.workers.length < this.size)) {
      target = new PooledWorker((gone) => {
        const at = this.workers.indexOf(gone);
        if (at >= 0) this.workers.splice(at, 1);
      });
      this.workers.push(target);
    }
    const id = ++this.lastJob;
    target.add(id, listener);
    return new HashJob(target, id);
  }

  /** Workers running now. */
  get threads(): number {
    return this.workers.length;
  }

  /** Stops every worker; jobs still running fail. Later streams are hashed on the calling thread. */
  async close(): Promise<void> {
    this.closed = true;
    const reason = new Error('The encrypted store was closed');
    await Promise.all(this.workers.map((w) => w.stop(reason)));
  }
}
