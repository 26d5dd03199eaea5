import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BlobIntegrityError } from '../../src/storage/blob-store.js';
import { openChunks, sealChunks, sealInPlace, storedOffsetOf, type OpenPlan } from '../../src/storage/chunk-cipher.js';
import { ChunkLayout, encodeHeader, HEADER_LENGTH, TAG_LENGTH } from '../../src/storage/chunk-format.js';

const CHUNK = 16;
const RECORD = CHUNK + TAG_LENGTH;
const key = randomBytes(32);
const header = encodeHeader(CHUNK);
const data = randomBytes(5 * CHUNK + 7);
const layout = new ChunkLayout(CHUNK, data.length);
const stored = Buffer.concat([header, ...sealChunks({ key, header, chunkSize: CHUNK }, 0, data, true)]);

function wholePlan(): OpenPlan {
  return {
    blobKey: 'k',
    key,
    header,
    layout,
    first: 0,
    last: layout.finalIndex,
    startsWithHeader: true,
    slice: { start: 0, end: data.length - 1 },
  };
}

/** `bytes` as a stream of pieces of `size` bytes (the last one shorter). */
async function* piecesOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield Buffer.from(bytes.subarray(at, at + size));
}

async function drain(source: AsyncIterable<Buffer>): Promise<{ data: Buffer; error?: unknown }> {
  const parts: Buffer[] = [];
  try {
    for await (const part of source) parts.push(Buffer.from(part));
    return { data: Buffer.concat(parts) };
  } catch (error) {
    return { data: Buffer.concat(parts), error };
  }
}

describe('openChunks', () => {
  it('gives the same plaintext whatever size the stored pieces are', async () => {
    for (let size = 1; size <= stored.length; size++) {
      const got = await drain(openChunks(piecesOf(stored, size), wholePlan()));
      expect(got.error, `pieces of ${size}`).toBeUndefined();
      expect(got.data.equals(data), `pieces of ${size}`).toBe(true);
    }
  });

  it('gives only the slice asked for, from the chunks stored for it', async () => {
    for (const slice of [
      { start: 0, end: 0 },
      { start: 5, end: 40 },
      { start: CHUNK, end: 3 * CHUNK - 1 },
      { start: 33, end: data.length - 1 },
      { start: data.length - 1, end: data.length - 1 },
    ]) {
      const { first, last, stored: range } = layout.locate(slice);
      const plan = { ...wholePlan(), first, last, startsWithHeader: false, slice };
      for (const size of [1, 7, RECORD, 1000]) {
        const got = await drain(openChunks(piecesOf(stored.subarray(range.start, range.end + 1), size), plan));
        expect(got.error).toBeUndefined();
        expect(got.data.equals(data.subarray(slice.start, slice.end + 1)), `${JSON.stringify(slice)} in pieces of ${size}`).toBe(true);
      }
    }
  });

  it('stops at a damaged chunk with every chunk before it and nothing after', async () => {
    for (const index of [0, 2, layout.finalIndex]) {
      const damaged = Buffer.from(stored);
      damaged[HEADER_LENGTH + index * RECORD + 3]! ^= 1;
      for (const size of [5, 3 * RECORD, damaged.length]) {
        const got = await drain(openChunks(piecesOf(damaged, size), wholePlan()));
        expect(got.error, `chunk ${index}, pieces of ${size}`).toBeInstanceOf(BlobIntegrityError);
        expect(got.data.equals(data.subarray(0, index * CHUNK)), `chunk ${index}, pieces of ${size}`).toBe(true);
      }
    }
  });

  it('never gives the last chunk of a stream that is cut short or runs on', async () => {
    for (const bytes of [
      stored.subarray(0, stored.length - 1),
      Buffer.concat([stored, Buffer.from([0])]),
      stored.subarray(0, HEADER_LENGTH - 1),
    ]) {
      for (const size of [4, RECORD + 1, bytes.length]) {
        const got = await drain(openChunks(piecesOf(bytes, size), wholePlan()));
        expect(got.error).toBeInstanceOf(BlobIntegrityError);
        expect(got.data.length).toBeLessThanOrEqual(layout.finalIndex * CHUNK);
        expect(got.data.equals(data.subarray(0, got.data.length))).toBe(true);
      }
    }
  });

  it('refuses a wrong header before any chunk', async () => {
    const wrong = Buffer.from(stored);
    wrong[0] = 0;
    const got = await drain(openChunks(piecesOf(wrong, 1000), wholePlan()));
    expect(got.error).toBeInstanceOf(BlobIntegrityError);
    expect(got.data.length).toBe(0);
  });

  it('opens an empty file', async () => {
    const empty = new ChunkLayout(CHUNK, 0);
    const sealed = Buffer.concat([header, ...sealChunks({ key, header, chunkSize: CHUNK }, 0, Buffer.alloc(0), true)]);
    const plan = { ...wholePlan(), layout: empty, last: 0, slice: { start: 0, end: -1 } };
    const got = await drain(openChunks(piecesOf(sealed, 7), plan));
    expect(got.error).toBeUndefined();
    expect(got.data.length).toBe(0);
  });

  it('seals a batch in its stored layout in place, to the same bytes as record by record', () => {
    const seal = { key, header, chunkSize: CHUNK };
    for (const [length, isFinal] of [
      [0, true],
      [1, true],
      [CHUNK, true],
      [CHUNK, false],
      [3 * CHUNK, false],
      [3 * CHUNK + 5, true],
    ] as const) {
      const plaintext = randomBytes(length);
      const batch = Buffer.alloc(storedOffsetOf(CHUNK, length) + TAG_LENGTH, 0xee);
      for (let at = 0; at < length; at += CHUNK) plaintext.copy(batch, storedOffsetOf(CHUNK, at), at, at + CHUNK);
      const seen: Buffer[] = [];
      const stored = sealInPlace(seal, 7, batch, length, isFinal, (bytes) => seen.push(Buffer.from(bytes)));

      expect(batch.subarray(0, stored).equals(Buffer.concat(sealChunks(seal, 7, plaintext, isFinal)))).toBe(true);
      expect(Buffer.concat(seen).equals(plaintext)).toBe(true);
    }
    expect(() => sealInPlace(seal, 0, Buffer.alloc(CHUNK + TAG_LENGTH - 1), CHUNK, false)).toThrow(RangeError);
    expect(() => sealInPlace(seal, 0, Buffer.alloc(4 * RECORD), CHUNK + 1, false)).toThrow(RangeError);
  });
});
