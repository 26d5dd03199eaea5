import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ResourceLimits, Transferable } from 'node:worker_threads';
import { Piscina } from 'piscina';

export class WorkerTimeoutError extends Error {
  constructor(ms: number) {
    super(`worker task took longer than ${ms} ms`);
    this.name = 'WorkerTimeoutError';
  }
}

export interface WorkerPoolOptions {
  /** The compiled worker module, from `compiledWorker`. Its default export runs each task. */
  file: string;
  /** Most threads at once; they start on first use. */
  threads: number;
  /** Tasks one thread runs at a time: 1 for CPU work, more for tasks that mostly wait on messages. */
  tasksPerThread?: number;
  /** Heap limits per thread: a hostile input that balloons ends its thread, not the server. */
  resourceLimits?: ResourceLimits;
  /** An idle thread ends after this (keeping what it loaded until then). */
  idleTimeoutMs?: number;
}

/**
 * The one way the server runs work on other threads (hashing uploads, AI-search analysis and
 * embeddings): a Piscina pool with a deadline per task. A task past its deadline rejects with
 * WorkerTimeoutError and its thread is ended and replaced; a thread that crashes fails only its
 * own tasks.
 */
export class WorkerPool {
  private readonly piscina: Piscina;

  constructor(options: WorkerPoolOptions) {
    this.piscina = new Piscina({
      filename: options.file,
      minThreads: 0,
      maxThreads: Math.max(1, options.threads),
      concurrentTasksPerWorker: options.tasksPerThread ?? 1,
      idleTimeout: options.idleTimeoutMs ?? 60_000,
      // Nothing reads Piscina's run and wait time histograms, and they took 0.36 MB of native memory
      // each, two per pool, from the moment the pool is made.
      recordTiming: false,
      // Without inherited flags: a loader or --input-type of the parent must not change the worker.
      execArgv: [],
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    });
  }

  async run<T>(task: unknown, options: { transfer?: Transferable[]; timeoutMs?: number } = {}): Promise<T> {
    const signal = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
    try {
      return (await this.piscina.run(task, { transferList: options.transfer as never, ...(signal ? { signal } : {}) })) as T;
    } catch (err) {
      if (signal?.aborted) throw new WorkerTimeoutError(options.timeoutMs!);
      throw err;
    }
  }

  /** Threads running now. */
  get threads(): number {
    return this.piscina.threads.length;
  }

  /** Ends every thread; tasks still queued or running reject. */
  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}

/**
 * The compiled file of a worker module, by its path under `src/` (`storage/hash.worker.js`): next
 * to this module when the server runs from its build, and from the build when tests run the
 * TypeScript sources (a worker thread cannot load TypeScript).
 */
export function compiledWorker(relative: string): string {
  const beside = fileURLToPath(new URL(`../${relative}`, import.meta.url));
  if (existsSync(beside)) return beside;
  const built = fileURLToPath(new URL(`../../dist/${relative}`, import.meta.url));
  if (existsSync(built)) return built;
  throw new Error(`worker not built (${built}); run npm run build`);
}
