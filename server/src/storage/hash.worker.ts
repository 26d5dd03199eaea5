import { createHash } from 'node:crypto';
import type { MessagePort } from 'node:worker_threads';

/** Main thread → worker: the next batch of the stream, or the end of an abandoned one. */
export type HashBatch = { data: Uint8Array; length: number; isFinal: boolean } | { drop: true };

/** Worker → main thread, one per batch, in order: the buffer comes back to be refilled. */
export interface HashedBatch {
  data: Uint8Array;
  sha256?: string;
}

/**
 * One pool task per upload: the SHA-256 of a stream whose batches arrive over `port` in order.
 * It allocates nothing per batch, so it never needs a garbage collection to stay small; it ends
 * with the final batch, or when the stream is dropped or its port closed.
 */
export default function hashStream({ port }: { port: MessagePort }): Promise<string | null> {
  const hash = createHash('sha256');
  return new Promise((resolve) => {
    port.on('close', () => resolve(null));
    port.on('message', (batch: HashBatch) => {
      if ('drop' in batch) {
        port.close();
        return;
      }
      hash.update(batch.data.subarray(0, batch.length));
      const sha256 = batch.isFinal ? hash.digest('hex') : undefined;
      port.postMessage({ data: batch.data, sha256 } satisfies HashedBatch, [batch.data.buffer as ArrayBuffer]);
      if (sha256 !== undefined) {
        port.close();
        resolve(sha256);
      }
    });
  });
}
