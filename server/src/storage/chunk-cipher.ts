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

/** Stored bytes of a batch of `plaintextLength` bytes sealed from a chunk boundary: a tag follows each chunk. */
export function sealedLength(chunkSize: number, plaintextLength: number, isFinal: boolean): number {
  const count = isFinal ? Math.max(1, Math.ceil(plaintextLength / chunkSize)) : plaintextLength / chunkSize;
  if (!Number.isInteger(count)) throw new RangeError('Only the final chunk may be partial');
  return plaintextLength + count * TAG_LENGTH;
}

/** Where plaintext byte `offset` of a batch goes when the batch is laid out as it is stored. */
export function storedOffsetOf(chunkSize: number, offset: number): number {
  return offset + Math.floor(offset / chunkSize) * TAG_LENGTH;
}

/**
 * Seals a batch that already lies in its stored layout: chunk i's plaintext at i·(chunk size + tag),
 * with room for its tag after it. Each chunk is encrypted over its own bytes and its tag written
 * after it, so the batch goes to storage as one buffer and no record is allocated per chunk. Before a
 * chunk is encrypted, `sees` gets its plaintext (the hash, which then reads it while in cache).
 * Answers the stored length; the bytes are those `sealChunks` gives for the same plaintext.
 */
export function sealInPlace(
  seal: SealKey,
  firstIndex: number,
  batch: Uint8Array,
  plaintextLength: number,
  isFinal: boolean,
  sees?: (plaintext: Uint8Array) => void,
): number {
  const { key, header, chunkSize } = seal;
  const stored = sealedLength(chunkSize, plaintextLength, isFinal);
  if (stored > batch.length) throw new RangeError('The batch has no room for its tags');
  const count = (stored - plaintextLength) / TAG_LENGTH;
  for (let i = 0; i < count; i++) {
    const index = firstIndex + i;
    const from = i * (chunkSize + TAG_LENGTH);
    const to = from + Math.min(chunkSize, plaintextLength - i * chunkSize);
    const plaintext = batch.subarray(from, to);
    sees?.(plaintext);
    const cipher = createCipheriv('aes-256-gcm', key, nonceFor(index)).setAAD(aadFor(header, index, isFinal && i === count - 1));
    // GCM's output is as long as its input and final() adds nothing: the ciphertext takes the plaintext's place.
    batch.set(cipher.update(plaintext), from);
    cipher.final();
    batch.set(cipher.getAuthTag(), to);
  }
  return stored;
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
