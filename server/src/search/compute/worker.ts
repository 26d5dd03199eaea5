import { parentPort } from 'node:worker_threads';
import { analyze } from '../extract/analyze.js';
import { embedLocally } from '../embed/local-model.js';
import type { ComputeRequest, ComputeResponse } from './tasks.js';

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
