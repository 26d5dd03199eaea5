import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { analyze } from '../extract/analyze.js';
import { embedLocally } from '../embed/local-model.js';
import type { ComputeRequest, ComputeResponse } from './tasks.js';

// Background work yields the CPU to requests: on Linux a thread's nice value is its own (and
// threads it starts, such as the OCR engine's, inherit it), so this lowers only this thread.
try {
  setPriority(0, 10);
} catch {
  // Not permitted or not supported here: run at normal priority.
}

/** Thread entry of the compute pool: one task at a time, answered with its request id. */
parentPort?.on('message', (request: ComputeRequest) => {
  void (async () => {
    const { task } = request;
    try {
      const result = task.type === 'analyze' ? await analyze(task) : await embedLocally(task.texts);
      const transfer = task.type === 'embed' ? (result as Float32Array[]).map((v) => v.buffer as ArrayBuffer) : [];
      parentPort?.postMessage({ id: request.id, result } satisfies ComputeResponse, transfer);
    } catch (err) {
      parentPort?.postMessage({ id: request.id, error: err instanceof Error ? err.message : String(err) } satisfies ComputeResponse);
    }
  })();
});
