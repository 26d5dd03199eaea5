import type { MessagePort } from 'node:worker_threads';
import { sealInPlace } from './chunk-cipher.js';
import { YoungCollector } from '../workers/young-collector.js';
import { ContentHasher, type ContentDigest } from './content-digest.js';

/** How a batch in its stored layout is sealed (see `sealInPlace`). */
export interface SealOrder {
  key: Uint8Array;
  header: Uint8Array;
  chunkSize: number;
  firstIndex: number;
  isFinal: boolean;
}

/**
 * Main thread → worker: the next batch of the stream, or the end of an abandoned one. Without
 * `seal` the first `length` bytes are plaintext to hash; with it the batch lies in its stored
 * layout, `length` plaintext bytes of it, and is hashed (unless `hash` is false) and sealed in place.
 */
export type HashBatch = { data: Uint8Array; length: number; isFinal: boolean; seal?: SealOrder; hash?: boolean } | { drop: true };

/** Worker → main thread, one per batch, in order: the buffer comes back, sealed when asked, to be stored or refilled. */
export interface HashedBatch {
  data: Uint8Array;
  /** Stored bytes at the start of `data`, for a sealed batch. */
  stored?: number;
  digest?: ContentDigest;
}

/** Sealing's outputs of this thread between two young collections: bounds the dead buffers it holds. */
const sealedGarbage = new YoungCollector(8 * 1024 * 1024);

/**
 * One pool task per upload: the digests of a stream whose batches arrive over `port` in order, and
 * the sealing of those batches, so the request thread only moves bytes. Hashing allocates nothing
 * per batch; sealing a little per chunk, on this thread's own heap. The task ends with the final
 * batch, or when the stream is dropped or its port closed.
 */
export default function hashStream({ port }: { port: MessagePort }): Promise<ContentDigest | null> {
  const hasher = new ContentHasher();
  const sees = (plaintext: Uint8Array): void => hasher.update(plaintext);
  return new Promise((resolve) => {
    port.on('close', () => resolve(null));
    port.on('message', (batch: HashBatch) => {
      if ('drop' in batch) {
        port.close();
        return;
      }
      let stored: number | undefined;
      if (batch.seal) {
        const { key, header, chunkSize, firstIndex, isFinal } = batch.seal;
        const seal = {
          key: Buffer.from(key.buffer, key.byteOffset, key.length),
          header: Buffer.from(header.buffer, header.byteOffset, header.length),
          chunkSize,
        };
        stored = sealInPlace(seal, firstIndex, batch.data, batch.length, isFinal, batch.hash === false ? undefined : sees);
        sealedGarbage.add(batch.length);
      } else {
        hasher.update(batch.data.subarray(0, batch.length));
      }
      const digest = batch.isFinal ? hasher.digest() : undefined;
      port.postMessage({ data: batch.data, stored, digest } satisfies HashedBatch, [batch.data.buffer as ArrayBuffer]);
      if (digest !== undefined) {
        port.close();
        resolve(digest);
      }
    });
  });
}
