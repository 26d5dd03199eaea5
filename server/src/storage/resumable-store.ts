import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { uploadBuffers } from '../workers/young-collector.js';
import { isGrowable, type BlobStore } from './blob-store.js';
import { openChunks, sealInPlace, storedOffsetOf, type SealKey } from './chunk-cipher.js';
import { ChunkLayout, DEFAULT_CHUNK_SIZE, encodeHeader } from './chunk-format.js';
import { ContentHasher, type ContentDigest } from './content-digest.js';
import type { HashPool } from './hash-pool.js';
import { assertMasterKey, unwrapDataKey, wrapDataKey } from './key-wrap.js';
import { RunningHashes, type RunningHash, type Sealed } from './running-hash.js';

/** A resumable upload's place in storage: where its bytes go and the key they are sealed with. */
export interface ResumableTarget {
  /** The blob key the whole file gets once complete. */
  storageKey: string;
  wrappedKey: string;
  /** Plaintext size of the whole upload, known from the start. */
  length: number;
}

export interface AppendOptions {
  /** Plaintext bytes already stored (a chunk boundary, or the whole length). */
  offset: number;
  /** Segments already stored: this one is stored under that number. */
  segment: number;
  /** On a broken body, keep the whole chunks that arrived (false when they cannot be checked). */
  keepPartial: boolean;
  /** Every byte of the body as received, before any is kept or dropped (checksums). */
  onBytes?: (bytes: Buffer) => void;
  /** The SHA-256 of the bytes before `offset`, when this process has it; the kept bytes are fed to it. */
  hash?: RunningHash;
}

export class BodyTooLongError extends Error {
  constructor() {
    super('The body goes past the declared upload length');
    this.name = 'BodyTooLongError';
  }
}

/** Plaintext gathered before sealing: whole chunks, as the upload path seals them. */
const BATCH_BYTES = 1024 * 1024;
/** Batches of one piece being sealed at once: one on the worker while the next is read. */
const BATCHES_SEALING = 2;

function segmentKey(target: Pick<ResumableTarget, 'storageKey'>, segment: number): string {
  return `tus/${target.storageKey}-${segment}`;
}

/** The one growing object of an upload on a store that writes in place. */
function partialKey(target: Pick<ResumableTarget, 'storageKey'>): string {
  return `tus/${target.storageKey}`;
}

/**
 * Encrypted uploads that arrive in pieces, over requests, processes and restarts. Each piece is
 * sealed in the file's chunk format from its own chunk index on and stored as a segment of whole
 * chunks (a broken piece keeps the whole chunks that arrived; the part of a chunk is dropped and
 * sent again), so bytes are encrypted from the first one and durable once a segment is stored.
 * Completing joins the segments under the file's key: the same object a one-request upload makes.
 * A store that grows objects in place (local disk) takes each piece at its final position in one
 * object instead, and completing is a rename.
 */
export class ResumableStore {
  private readonly hashes: RunningHashes;

  constructor(
    private readonly inner: BlobStore,
    private readonly masterKey: Buffer,
    options: { hashPool?: HashPool | null; chunkSize?: number } = {},
  ) {
    assertMasterKey(masterKey);
    this.chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    this.hashes = new RunningHashes(options.hashPool ?? null);
  }

  private readonly chunkSize: number;

  /** A SHA-256 to carry over an upload's pieces, on the hashing threads when one is free. */
  startHash(): RunningHash {
    return this.hashes.start();
  }

  begin(storageKey: string, length: number): ResumableTarget {
    const wrappedKey = wrapDataKey(this.masterKey, { key: randomBytes(32), chunkSize: this.chunkSize });
    return { storageKey, wrappedKey, length };
  }

  /** Seals and stores the body's whole chunks as the next segment; answers how many plaintext bytes it kept. */
  async append(target: ResumableTarget, body: Readable, options: AppendOptions): Promise<number> {
    const seal = this.sealKey(target);
    const layout = new ChunkLayout(seal.chunkSize, target.length);
    let kept = 0;
    let broken: unknown = null;
    const offset = options.offset;
    const hash = options.hash;
    const chunkSize = seal.chunkSize;
    const plaintextBytes = BATCH_BYTES - (BATCH_BYTES % chunkSize) || chunkSize;
    const batchBytes = storedOffsetOf(chunkSize, plaintextBytes);
    // Batches laid out as stored, refilled once written (the disk store hands them back).
    const spare: Buffer[] = [];
    const owned = new WeakSet<ArrayBufferLike>();
    const recycle = (piece: Buffer): void => {
      if (!owned.has(piece.buffer) || spare.length >= BATCHES_SEALING + 1) return;
      owned.delete(piece.buffer);
      spare.push(Buffer.from(piece.buffer, 0, batchBytes));
    };
    async function* sealed(): AsyncGenerator<Buffer> {
      let batch = spare.pop() ?? Buffer.allocUnsafeSlow(batchBytes);
      let filled = 0;
      // Batches being hashed and sealed (on a worker when the hash has one) while the next is read.
      const sealing: Promise<Sealed>[] = [];
      const flush = (isFinal: boolean): void => {
        const whole = isFinal ? filled : filled - (filled % chunkSize);
        if (whole === 0 && !isFinal) return;
        const firstIndex = (offset + kept) / chunkSize;
        sealing.push(
          hash
            ? hash.seal(seal, firstIndex, batch, whole, isFinal)
            : Promise.resolve({ batch, stored: sealInPlace(seal, firstIndex, batch, whole, isFinal) }),
        );
        kept += whole;
        // A part of a chunk left over is only ever the end of a broken body: it is not kept.
        filled = 0;
        batch = spare.pop() ?? Buffer.allocUnsafeSlow(batchBytes);
      };
      const done = async (): Promise<Buffer> => {
        const { batch: back, stored } = await sealing.shift()!;
        owned.add(back.buffer);
        return back.subarray(0, stored);
      };
      try {
        try {
          for await (const piece of body as AsyncIterable<Buffer>) {
            options.onBytes?.(piece);
            uploadBuffers.add(piece.length);
            for (let at = 0; at < piece.length;) {
              if (offset + kept + filled + (piece.length - at) > target.length) throw new BodyTooLongError();
              const wanted = Math.min(piece.length - at, chunkSize - (filled % chunkSize), plaintextBytes - filled);
              const copied = piece.copy(batch, storedOffsetOf(chunkSize, filled), at, at + wanted);
              filled += copied;
              at += copied;
              if (filled === plaintextBytes) {
                flush(offset + kept + filled === target.length);
                if (sealing.length >= BATCHES_SEALING) yield await done();
              }
            }
          }
        } catch (err) {
          if (err instanceof BodyTooLongError || !options.keepPartial) throw err;
          broken = err;
        }
        const complete = offset + kept + filled === target.length;
        if (filled > 0 || (complete && kept === 0 && layout.plaintextSize === 0)) flush(complete && broken === null);
        while (sealing.length > 0) yield await done();
      } finally {
        // Batches still being sealed when the piece failed: their outcome no longer matters.
        for (const pending of sealing) pending.catch(() => undefined);
      }
    }
    const inner = this.inner;
    if (isGrowable(inner)) {
      // The first piece starts the object with its header; each later one goes where its chunks belong.
      const position = offset === 0 ? 0 : layout.storedOffset(offset / seal.chunkSize);
      const headed = async function* (): AsyncGenerator<Buffer> {
        if (offset === 0) yield seal.header;
        yield* sealed();
      };
      await inner.writeAt(partialKey(target), position, Object.assign(Readable.from(headed()), { recycle }));
    } else {
      await inner.put(segmentKey(target, options.segment), Readable.from(sealed()));
    }
    return kept;
  }

  /**
   * Joins the segments into the file's object and answers its digests and first bytes. Without
   * a hash carried from the start, the plaintext is read back, authenticated and hashed.
   */
  async complete(
    target: ResumableTarget,
    segments: number,
    hash: RunningHash | undefined,
    headBytes: number,
  ): Promise<{ digest: ContentDigest; head: Buffer }> {
    const seal = this.sealKey(target);
    const inner = this.inner;
    async function* joined(): AsyncGenerator<Buffer> {
      yield seal.header;
      for (let i = 0; i < segments; i++) for await (const piece of await inner.get(segmentKey(target, i))) yield piece as Buffer;
    }
    const layout = new ChunkLayout(seal.chunkSize, target.length);
    // A process stopped after joining but before the file was made leaves the whole object in
    // place (a rename, or one atomic put) and its pieces possibly gone: it is taken as it is.
    const joinedBefore = (await inner.stat(target.storageKey))?.size === layout.storedSize;
    if (!joinedBefore) {
      if (isGrowable(inner)) await inner.promote(partialKey(target), target.storageKey);
      else await inner.put(target.storageKey, Readable.from(joined()));
    }
    const plan = { blobKey: target.storageKey, key: seal.key, header: seal.header, layout };
    // The first bytes, for content sniffing: only the chunks that hold them are read.
    const head: Buffer[] = [];
    if (target.length > 0) {
      const slice = { start: 0, end: Math.min(target.length, headBytes) - 1 };
      const { first, last, stored } = layout.locate(slice);
      const bytes = await this.inner.get(target.storageKey, stored);
      for await (const piece of openChunks(bytes, { ...plan, first, last, startsWithHeader: false, slice })) head.push(piece);
    }
    // A hash that failed on its thread is as good as none: the stored bytes are hashed instead.
    let digest = hash ? await hash.digest().catch(() => null) : null;
    if (digest === null && target.length === 0) digest = new ContentHasher().digest();
    if (digest === null) {
      const hasher = new ContentHasher();
      const whole = openChunks(await this.inner.get(target.storageKey), {
        ...plan,
        first: 0,
        last: layout.finalIndex,
        startsWithHeader: true,
        slice: { start: 0, end: target.length - 1 },
      });
      for await (const piece of whole) hasher.update(piece);
      digest = hasher.digest();
    }
    await this.discardSegments(target, segments);
    return { digest, head: Buffer.concat(head) };
  }

  /** Removes the segments (a completed, terminated or expired upload). */
  async discardSegments(target: Pick<ResumableTarget, 'storageKey'>, segments: number): Promise<void> {
    for (const key of this.storedKeys(target, segments)) await this.inner.delete(key);
  }

  /** Every key an upload with `segments` pieces may have stored bytes under (one more for a piece cut short). */
  storedKeys(target: Pick<ResumableTarget, 'storageKey'>, segments: number): string[] {
    if (isGrowable(this.inner)) return [partialKey(target)];
    return Array.from({ length: segments + 1 }, (_, i) => segmentKey(target, i));
  }

  private sealKey(target: ResumableTarget): SealKey {
    const dataKey = unwrapDataKey(this.masterKey, target.wrappedKey);
    if (!dataKey) throw new Error('The upload key does not open');
    return { key: dataKey.key, header: encodeHeader(dataKey.chunkSize), chunkSize: dataKey.chunkSize };
  }
}
