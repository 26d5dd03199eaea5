import type { ResourceLimits } from 'node:worker_threads';
import { WorkerPool, WorkerTimeoutError, compiledWorker } from '../../workers/pool.js';
import type { ComputeResults, ComputeTask } from './tasks.js';

export interface ComputePoolOptions {
  /** A task still running after this is abandoned: its thread is ended and replaced. */
  taskTimeoutMs?: number;
  /** Heap limits per thread: a hostile document that balloons ends its thread, not the server. */
  resourceLimits?: ResourceLimits;
}

/** A compute task past its deadline (the shared pool's timeout, under the name search code knows). */
export { WorkerTimeoutError as ComputeTimeoutError };

const DEFAULTS: Required<ComputePoolOptions> = {
  taskTimeoutMs: 120_000,
  // Twice what the heaviest real work needs (the vision and embedding models loaded, then a photo,
  // an OCR scan or a PDF read; none fails at 128 MiB). The extractors bound what a hostile file can
  // make them hold well below this; the limit is the backstop, and reaching it may end more than
  // the thread, so it is not where a document's cost should be decided.
  resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 64 },
};
/** Threads keep their loaded models this long after their last task. */
const IDLE_MS = 10 * 60_000;

/**
 * A fixed number of threads of the shared worker pool for CPU-heavy work (parsing, OCR,
 * embeddings), so it never runs on the event loop and never takes more threads than it was given.
 * Threads start on first use and keep their loaded models while busy; a crashed thread, or one
 * whose task runs past its deadline, fails its task and is replaced.
 */
export class ComputePool {
  private readonly pool: WorkerPool;
  private readonly timeoutMs: number;
  private closed = false;

  constructor(
    readonly size: number,
    options: ComputePoolOptions = {},
  ) {
    const { taskTimeoutMs, resourceLimits } = { ...DEFAULTS, ...options };
    this.timeoutMs = taskTimeoutMs;
    this.pool = new WorkerPool({ file: compiledWorker('search/compute/worker.js'), threads: size, resourceLimits, idleTimeoutMs: IDLE_MS });
  }

  async run<T extends ComputeTask>(task: T, transfer: ArrayBuffer[] = []): Promise<ComputeResults[T['type']]> {
    if (this.closed) throw new Error('compute pool closed');
    const result = await this.pool.run<unknown>(task, { transfer, timeoutMs: this.timeoutMs });
    if (task.type !== 'embed' && task.type !== 'clip-text') return result as ComputeResults[T['type']];
    // One vector per text, equally long, back to back in one moved array.
    const flat = result as Float32Array;
    const size = task.texts.length === 0 ? 0 : flat.length / task.texts.length;
    return task.texts.map((_, i) => flat.subarray(i * size, (i + 1) * size)) as ComputeResults[T['type']];
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.close();
  }
}
