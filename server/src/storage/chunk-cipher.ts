import { createCipheriv, createDecipheriv } from 'node:crypto';
import { BlobIntegrityError, type ByteRange } from './blob-store.js';
import { aadFor, HEADER_LENGTH, nonceFor, TAG_LENGTH, type ChunkLayout } from './chunk-format.js';

/** The data key, header and chunk size a file is sealed with. */
export interface SealKey {
  key: Buffer;
  header: Buffer;
  chunkSize: number;
}

/**
 * Seals `plaintext` as consecutive chunks from chunk `firstIndex` on, returning each chunk's
 * ciphertext followed by its tag, in stored order. Every chunk is full, except that when `isFinal`
 * the last one holds the rest (and is empty only when the file is).
 */
export function sealChunks(seal: SealKey, firstIndex: number, plaintext: Buffer, isFinal: boolean): Buffer[] {
  const { key, header, chunkSize } = seal;
  const count = isFinal ? Math.max(1, Math.ceil(plaintext.length / chunkSize)) : plaintext.length / chunkSize;
  if (!Number.isInteger(count)) throw new RangeError('Only the final chunk may be partial');
  const records: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const index = firstIndex + i;
    const last = isFinal && i === count - 1;
    const cipher = createCipheriv('aes-256-gcm', key, nonceFor(index)).setAAD(aadFor(header, index, last));
    records.push(cipher.update(plaintext.subarray(i * chunkSize, (i + 1) * chunkSize)));
    cipher.final();
    records.push(cipher.getAuthTag());
  }
  return records;
}

export interface OpenPlan {
  /** Storage key, named in integrity errors. */
  blobKey: string;
  key: Buffer;
  header: Buffer;
  layout: ChunkLayout;
  /** Chunks the stored stream holds, in order. */
  first: number;
  last: number;
  /** The stored stream starts at the header (a whole-object read) rather than at chunk `first`. */
  startsWithHeader: boolean;
  /** Plaintext bytes to emit (inclusive). */
  slice: ByteRange;
}

/**
 * Plaintext of the chunks in `stored`. Each chunk is emitted only after its tag verifies; a bad
 * tag, a wrong header, a short stream or bytes past the last chunk end it with BlobIntegrityError,
 * and then the last chunk is never emitted.
 */
export async function* openChunks(stored: AsyncIterable<Buffer | string> | Iterable<Buffer>, plan: OpenPlan): AsyncGenerator<Buffer> {
  const { layout } = plan;
  // Only for a record split between two pieces of the stored stream; most files never need it.
  let pending: Buffer | undefined;
  let inHeader = plan.startsWithHeader;
  let index = plan.first;
  let needed = inHeader ? HEADER_LENGTH : recordLength(layout, index);
  let filled = 0;
  // The last chunk's bytes wait for the end of the stored stream: a reader that received every
  // byte it expected must be able to trust that the whole object checked out.
  let held: Buffer | undefined;
  for await (const chunk of stored) {
    const input = toBuffer(chunk);
    let offset = 0;
    while (offset < input.length) {
      if (index > plan.last) throw new BlobIntegrityError(plan.blobKey);
      let record: Buffer;
      if (filled === 0 && input.length - offset >= needed) {
        // The whole record is in this piece: open it in place rather than copy it.
        record = input.subarray(offset, offset + needed);
        offset += needed;
      } else {
        pending ??= Buffer.allocUnsafe(Math.max(HEADER_LENGTH, layout.chunkSize + TAG_LENGTH));
        const copied = input.copy(pending, filled, offset, offset + needed - filled);
        filled += copied;
        offset += copied;
        if (filled < needed) break;
        record = pending.subarray(0, needed);
      }
      if (inHeader) {
        if (!record.equals(plan.header)) throw new BlobIntegrityError(plan.blobKey);
        inHeader = false;
      } else {
        const out = sliceOf(plan, index, openChunk(plan, index, record));
        if (index === plan.last) held = out;
        else if (out.length > 0) yield out;
        index += 1;
      }
      filled = 0;
      needed = recordLength(layout, index);
    }
  }
  if (inHeader || index <= plan.last || !held) throw new BlobIntegrityError(plan.blobKey);
  if (held.length > 0) yield held;
}

function openChunk(plan: OpenPlan, index: number, record: Buffer): Buffer {
  const body = record.subarray(0, record.length - TAG_LENGTH);
  try {
    const isFinal = index === plan.layout.finalIndex;
    const decipher = createDecipheriv('aes-256-gcm', plan.key, nonceFor(index)).setAAD(aadFor(plan.header, index, isFinal));
    decipher.setAuthTag(record.subarray(record.length - TAG_LENGTH));
    const plaintext = decipher.update(body);
    // GCM releases no bytes at final(); it only verifies the tag, throwing when it does not match.
    decipher.final();
    return plaintext;
  } catch {
    throw new BlobIntegrityError(plan.blobKey);
  }
}

function sliceOf(plan: OpenPlan, index: number, plaintext: Buffer): Buffer {
  const chunkStart = index * plan.layout.chunkSize;
  const from = Math.max(plan.slice.start - chunkStart, 0);
  const to = Math.min(plan.slice.end + 1 - chunkStart, plaintext.length);
  return from === 0 && to === plaintext.length ? plaintext : plaintext.subarray(from, Math.max(from, to));
}

function recordLength(layout: ChunkLayout, index: number): number {
  return index <= layout.finalIndex ? layout.plaintextLength(index) + TAG_LENGTH : 0;
}

function toBuffer(chunk: Buffer | string): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}
