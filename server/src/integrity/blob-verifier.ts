import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BlobIntegrityError, BlobNotFoundError, type BlobStore } from '../storage/blob-store.js';
import { openChunks } from '../storage/chunk-cipher.js';
import { ChunkLayout, encodeHeader, HEADER_LENGTH, TAG_LENGTH } from '../storage/chunk-format.js';
import { crc32 } from '../storage/crc32.js';
import { unwrapDataKey, type DataKey } from '../storage/key-wrap.js';
import type { RateLimiter } from './rate-limiter.js';

/** What one stored blob turned out to be, measured against the size its row records. */
export type BlobVerdict =
  /** `crc32`, `sha256` (hex): of the plaintext just read. */
  | { status: 'ok'; storedBytes: number; crc32: number; sha256: string }
  | { status: 'missing' }
  /** The row's wrapped key does not open with this master key: nothing of the blob can be read. */
  | { status: 'bad-key' }
  /** Stored plaintext size (from the stored length; null when no plaintext size gives it) differs from the row's. */
  | { status: 'size-mismatch'; storedBytes: number; storedSize: number | null; isAuthentic: boolean }
  | { status: 'corrupt'; storedBytes: number }
  /** The store failed to answer for it (after its own retries): reported, never treated as garbage. */
  | { status: 'unreadable'; reason: string };

/**
 * Reads a stored blob end to end through the same authenticated decryption a download uses,
 * streaming and discarding the plaintext, so memory stays one chunk whatever the file's size.
 */
export class BlobVerifier {
  constructor(
    private readonly store: BlobStore,
    private readonly masterKey: Buffer,
  ) {}

  async verify(key: string, wrappedKey: string, rowSize: number, limiter: RateLimiter, signal?: AbortSignal): Promise<BlobVerdict> {
    try {
      return await this.verifyOrThrow(key, wrappedKey, rowSize, limiter, signal);
    } catch (err) {
      // One blob the store cannot serve must not end a check of all the others.
      if (signal?.aborted) throw err;
      return { status: 'unreadable', reason: err instanceof Error ? err.message : String(err) };
    }
  }

  private async verifyOrThrow(
    key: string,
    wrappedKey: string,
    rowSize: number,
    limiter: RateLimiter,
    signal?: AbortSignal,
  ): Promise<BlobVerdict> {
    const dataKey = unwrapDataKey(this.masterKey, wrappedKey);
    if (!dataKey) return { status: 'bad-key' };
    const info = await this.store.stat(key);
    if (!info) return { status: 'missing' };
    const storedSize = plaintextSizeOf(info.size, dataKey.chunkSize);
    try {
      // Authenticated at the size the bytes imply, so a row with a wrong size still says whether the bytes are whole.
      const digest = await this.authenticatedDigest(key, dataKey, storedSize ?? rowSize, limiter, signal);
      if (storedSize !== rowSize) return { status: 'size-mismatch', storedBytes: info.size, storedSize, isAuthentic: digest !== null };
      return digest !== null ? { status: 'ok', storedBytes: info.size, ...digest } : { status: 'corrupt', storedBytes: info.size };
    } catch (err) {
      // Removed between stat and read: a delete racing the check, which the caller re-checks.
      if (err instanceof BlobNotFoundError) return { status: 'missing' };
      throw err;
    }
  }

  /** The plaintext's CRC-32 and SHA-256 when every chunk authenticates, else null. */
  private async authenticatedDigest(
    key: string,
    dataKey: DataKey,
    size: number,
    limiter: RateLimiter,
    signal?: AbortSignal,
  ): Promise<{ crc32: number; sha256: string } | null> {
    const layout = new ChunkLayout(dataKey.chunkSize, size);
    const stored = await this.store.get(key);
    const plan = {
      blobKey: key,
      key: dataKey.key,
      header: encodeHeader(dataKey.chunkSize),
      layout,
      first: 0,
      last: layout.finalIndex,
      startsWithHeader: true,
      slice: { start: 0, end: size - 1 },
    };
    try {
      let crc = 0;
      const hash = createHash('sha256');
      for await (const plaintext of openChunks(paced(stored, limiter, signal), plan)) {
        crc = crc32(plaintext, crc);
        hash.update(plaintext);
      }
      return { crc32: crc, sha256: hash.digest('hex') };
    } catch (err) {
      if (err instanceof BlobIntegrityError) return null;
      throw err;
    } finally {
      stored.destroy();
    }
  }
}

async function* paced(stored: Readable, limiter: RateLimiter, signal?: AbortSignal): AsyncGenerator<Buffer> {
  for await (const piece of stored as AsyncIterable<Buffer>) {
    signal?.throwIfAborted();
    await limiter.take(piece.length, signal);
    yield piece;
  }
}

/**
 * The plaintext size a stored length implies (see chunk-format.ts: header, then each chunk plus
 * its tag, every chunk full but the last), or null when no plaintext size gives this length.
 */
export function plaintextSizeOf(storedBytes: number, chunkSize: number): number | null {
  const body = storedBytes - HEADER_LENGTH;
  if (body < TAG_LENGTH) return null;
  const chunks = Math.ceil(body / (chunkSize + TAG_LENGTH));
  const size = body - chunks * TAG_LENGTH;
  return size >= 0 && new ChunkLayout(chunkSize, size).storedSize === storedBytes ? size : null;
}
