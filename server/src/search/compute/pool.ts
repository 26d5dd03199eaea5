import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { ComputeRequest, ComputeResponse, ComputeResults, ComputeTask } from './tasks.js';

interface Pending {
  request: ComputeRequest;
  transfer: ArrayBuffer[];
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
  deadline: NodeJS.Timeout | null;
}

export interface ComputePoolOptions {
  /** A task still running after this is abandoned: its thread is ended and replaced. */
  taskTimeoutMs?: number;
  /** Heap limits per thread: a hostile document that balloons ends its thread, not the server. */
  resourceLimits?: ResourceLimits;
}

export class ComputeTimeoutError extends Error {
  constructor(ms: number) {
    super(`compute task took longer than ${ms} ms`);
    this.name = 'ComputeTimeoutError';
  }
}

const DEFAULTS: Required<ComputePoolOptions> = {
  taskTimeoutMs: 120_000,
  resourceLimits: { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 64 },
};

/** The compiled thread entry; tests running the TypeScript sources use the build output. */
function workerFile(): string {
  const sibling = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (existsSync(sibling)) return sibling;
  const built = fileURLToPath(new URL('../../../dist/search/compute/worker.js', import.meta.url));
  if (existsSync(built)) return built;
  throw new Error(`compute worker not built (${built}); run npm run build`);
}

/**
 * A fixed number of worker threads for CPU-heavy work (parsing, OCR, embeddings), so it never
 * runs on the event loop and never takes more threads than it was given. Threads start on first
 * use and keep their loaded models; a crashed thread, or one whose task runs past its deadline,
 * fails its task and is replaced.
 */
export class ComputePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  private readonly options: Required<ComputePoolOptions>;

  constructor(
    readonly size: number,
    options: ComputePoolOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  run<T extends ComputeTask>(task: T, transfer: ArrayBuffer[] = []): Promise<ComputeResults[T['type']]> {
    if (this.closed) return Promise.reject(new Error('compute pool closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, task }, transfer, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('compute pool closed'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.busy === null) ?? (this.slots.length < this.size ? this.spawn() : null);
      if (!slot) return;
      const pending = this.queue.shift() as Pending;
      slot.busy = pending;
      slot.worker.ref();
      slot.deadline = setTimeout(() => this.abandon(slot), this.options.taskTimeoutMs);
      slot.worker.postMessage(pending.request, pending.transfer);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(workerFile(), { resourceLimits: this.options.resourceLimits });
    const slot: Slot = { worker, busy: null, deadline: null };
    worker.on('message', (message: ComputeResponse) => {
      const pending = slot.busy;
      slot.busy = null;
      if (slot.deadline) clearTimeout(slot.deadline);
      worker.unref();
      if (pending) {
        if (message.error !== undefined) pending.reject(new Error(message.error));
        else pending.resolve(message.result);
      }
      this.dispatch();
    });
    worker.on('error', (err) => this.retire(slot, err));
    worker.on('exit', (code) => this.retire(slot, new Error(`compute thread exited (${code})`)));
    this.slots.push(slot);
    return slot;
  }

  private abandon(slot: Slot): void {
    this.retire(slot, new ComputeTimeoutError(this.options.taskTimeoutMs));
    void slot.worker.terminate();
  }

  private retire(slot: Slot, err: Error): void {
    if (slot.deadline) clearTimeout(slot.deadline);
    slot.deadline = null;
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    slot.busy?.reject(err);
    slot.busy = null;
    if (!this.closed) this.dispatch();
  }
}
