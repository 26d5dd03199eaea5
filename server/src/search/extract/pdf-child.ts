import { Worker } from 'node:worker_threads';
import { readPdf } from './pdf.js';

/** Longer than the parent waits: this guards only a reader whose parent thread is gone. */
const READ_DEADLINE_MS = 100_000;

// While pdf.js runs, this process's event loop may not turn for a long time, so neither a timer
// nor the parent's leaving is seen here. A thread of its own ends a read that runs past its deadline.
const startedAt = new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT));
new Worker(
  `const started = new Float64Array(require('node:worker_threads').workerData);
   setInterval(() => { if (started[0] > 0 && Date.now() - started[0] > ${READ_DEADLINE_MS}) process.kill(process.pid, 'SIGKILL'); }, 1000);`,
  { eval: true, workerData: startedAt.buffer },
).unref();

/**
 * The process that reads PDFs for one compute thread (see pdf-process.ts): it answers each PDF
 * its parent sends, one at a time, with the text and date or a failure, and ends with its parent.
 */
process.on('message', (bytes: Uint8Array) => {
  startedAt[0] = Date.now();
  readPdf(bytes)
    .then(
      (result) => process.send?.(result),
      () => process.send?.({ failed: true }),
    )
    .finally(() => (startedAt[0] = 0));
});
process.on('disconnect', () => process.exit(0));
