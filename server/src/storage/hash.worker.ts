import type { MessagePort } from 'node:worker_threads';
import { ContentHasher, type ContentDigest } from './content-digest.js';

/** Main thread → worker: the next batch of the stream, or the end of an abandoned one. */
export type HashBatch = { data: Uint8Array; length: number; isFinal: boolean } | { drop: true };

/** Worker → main thread, one per batch, in order: the buffer comes back to be refilled. */
export interface HashedBatch {
  data: Uint8Array;
  digest?: ContentDigest;
}

/**
 * One pool task per upload: the digests of a stream whose batches arrive over `port` in order.
 * It allocates nothing per batch, so it never needs a garbage collection to stay small; it ends
 * with the final batch, or when the stream is dropped or its port closed.
 */
export default function hashStream({ port }: { port: MessagePort }): Promise<ContentDigest | null> {
  const hasher = new ContentHasher();
  return new Promise((resolve) => {
    port.on('close', () => resolve(null));
    port.on('message', (batch: HashBatch) => {
      if ('drop' in batch) {
        port.close();
        return;
      }
      hasher.update(batch.data.subarray(0, batch.length));
      const digest = batch.isFinal ? hasher.digest() : undefined;
      port.postMessage({ data: batch.data, digest } satisfies HashedBatch, [batch.data.buffer as ArrayBuffer]);
      if (digest !== undefined) {
        port.close();
        resolve(digest);
      }
    });
  });
}
