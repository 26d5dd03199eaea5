import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobIntegrityError, BlobTooLargeError, type EncryptedWriteResult } from '../../src/storage/blob-store.js';
import { ChunkedEncryptedStore } from '../../src/storage/encrypted.store.js';
import {
  drain,
  drivers,
  expectSameBytes,
  failingStream,
  MiB,
  readAll,
  RecordingStore,
  streamOf,
  type DriverFixture,
} from './storage-fixtures.js';

// Tiny chunks make every boundary case cheap; the stored format fixes these two numbers.
const CHUNK = 16;
const HEADER = 12;
const TAG = 16;
const RECORD = CHUNK + TAG;

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

// Over local disk, small objects are read both as a stream and whole in one buffer.
const stores = [
  ...drivers.map((driver) => ({ ...driver, wholeReads: false })),
  { ...drivers[0]!, name: 'fs read whole', wholeReads: true },
];

describe.each(stores)('encrypted store over $name', ({ setup, wholeReads }) => {
  let fixture: DriverFixture;
  let inner: RecordingStore;
  let sut: ChunkedEncryptedStore;
  const masterKey = randomBytes(32);
  let n = 0;
  const freshKey = (): string => `e${Date.now().toString(36)}${(n++).toString(36)}`;

  beforeAll(async () => {
    fixture = await setup();
    inner = new RecordingStore(fixture.store, wholeReads);
    sut = new ChunkedEncryptedStore(inner, masterKey, { chunkSize: CHUNK });
  });
  afterAll(async () => {
    await fixture?.teardown();
  });

  async function store(data: Buffer, pieceSize?: number): Promise<{ key: string; written: EncryptedWriteResult }> {
    const key = freshKey();
    const written = await sut.write(key, streamOf(data, pieceSize));
    return { key, written };
  }

  /** Rewrites the stored object through the plain store, as an attacker with disk or bucket access could. */
  async function tamper(key: string, change: (stored: Buffer) => Buffer): Promise<void> {
    const stored = await readAll(fixture.store.get(key));
    await fixture.store.put(key, streamOf(change(Buffer.from(stored))));
  }

  it.each([0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 5 * CHUNK + 7])('round-trips %i bytes', async (size) => {
    const data = randomBytes(size);
    const { key, written } = await store(data, 5);

    expect(written.size).toBe(size);
    expect(written.sha256).toBe(sha256(data));
    expect(written.crc32).toBe(crc32(data));
    expect(written.wrappedKey).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(await fixture.store.stat(key)).toEqual({ size: HEADER + size + Math.max(1, Math.ceil(size / CHUNK)) * TAG });
    expectSameBytes(await readAll(sut.read(key, written.wrappedKey, size)), data);
  });

  it('round-trips several MiB of random data in 64 KiB chunks', async () => {
    const big = new ChunkedEncryptedStore(fixture.store, masterKey);
    const data = randomBytes(6 * MiB + 12_345);
    const key = freshKey();

    const written = await big.write(key, streamOf(data, 100_003));

    expect(written).toMatchObject({ size: data.length, sha256: sha256(data), crc32: crc32(data) });
    expectSameBytes(await readAll(big.read(key, written.wrappedKey, data.length)), data);
    const range = { start: 3 * 65_536 - 10, end: 5 * 65_536 + 10 };
    expectSameBytes(await readAll(big.read(key, written.wrappedKey, data.length, range)), data.subarray(range.start, range.end + 1));
    await big.delete(key);
    expect(await fixture.store.stat(key)).toBeNull();
  });

  describe('ranges', () => {
    const data = randomBytes(5 * CHUNK + 7);
    let key: string;
    let wrappedKey: string;
    beforeAll(async () => {
      ({
        key,
        written: { wrappedKey },
      } = await store(data));
    });

    const edges = [...new Set([0, 1, 2, 86, 85].concat([1, 2, 3, 4, 5].flatMap((c) => [c * CHUNK - 1, c * CHUNK, c * CHUNK + 1])))]
      .filter((p) => p >= 0 && p < data.length)
      .sort((a, b) => a - b);
    const ranges = edges.flatMap((start) => edges.filter((end) => end >= start).map((end) => ({ start, end })));

    it(`reads every range between chunk edges, fetching only the chunks it touches (${ranges.length} ranges)`, async () => {
      for (const range of ranges) {
        inner.gets.length = 0;
        const got = await readAll(sut.read(key, wrappedKey, data.length, range));
        expectSameBytes(got, data.subarray(range.start, range.end + 1));

        const first = Math.floor(range.start / CHUNK);
        const last = Math.floor(range.end / CHUNK);
        const lastLength = Math.min(CHUNK, data.length - last * CHUNK) + TAG;
        expect(inner.gets, JSON.stringify(range)).toEqual([
          { key, range: { start: HEADER + first * RECORD, end: HEADER + last * RECORD + lastLength - 1 } },
        ]);
      }
    });

    it('clips a range that runs past the end', async () => {
      expectSameBytes(await readAll(sut.read(key, wrappedKey, data.length, { start: 80, end: 10_000 })), data.subarray(80));
    });

    it('refuses a range that starts past the end', async () => {
      await expect(sut.read(key, wrappedKey, data.length, { start: data.length, end: data.length })).rejects.toBeInstanceOf(RangeError);
    });
  });

  describe('tampering', () => {
    const data = randomBytes(5 * CHUNK + 7);
    const chunkCount = 6;
    let key: string;
    let wrappedKey: string;
    beforeAll(async () => {
      ({
        key,
        written: { wrappedKey },
      } = await store(data));
    });

    /** A whole read must fail, with only genuine whole chunks before the failure, never the last one. */
    async function expectRejected(target: string, size = data.length): Promise<void> {
      const whole = await drain(sut.read(target, wrappedKey, size));
      expect(whole.error).toBeInstanceOf(BlobIntegrityError);
      expectSameBytes(whole.data, data.subarray(0, whole.data.length));
      expect(whole.data.length % CHUNK).toBe(0);
    }

    it.each(Array.from({ length: chunkCount }, (_, i) => i))('detects one flipped byte in chunk %i', async (index) => {
      for (const offset of [0, RECORD - 1]) {
        const target = freshKey();
        await fixture.store.put(target, await fixture.store.get(key));
        await tamper(target, (stored) => {
          const at = Math.min(HEADER + index * RECORD + offset, stored.length - 1);
          stored[at] = stored[at]! ^ 0x01;
          return stored;
        });

        await expectRejected(target);
        const whole = await drain(sut.read(target, wrappedKey, data.length));
        expect(whole.data.length).toBe(index * CHUNK);
        const chunkRange = { start: index * CHUNK, end: Math.min((index + 1) * CHUNK, data.length) - 1 };
        const ranged = await drain(sut.read(target, wrappedKey, data.length, chunkRange));
        expect(ranged.error).toBeInstanceOf(BlobIntegrityError);
        expect(ranged.data.length).toBe(0);
      }
    });

    it('detects a changed header', async () => {
      const target = freshKey();
      await fixture.store.put(target, await fixture.store.get(key));
      await tamper(target, (stored) => {
        stored.writeUInt32BE(CHUNK * 2, 8);
        return stored;
      });
      const whole = await drain(sut.read(target, wrappedKey, data.length));
      expect(whole.error).toBeInstanceOf(BlobIntegrityError);
      expect(whole.data.length).toBe(0);
    });

    it.each([
      ['at a chunk boundary (the final chunk dropped)', HEADER + (chunkCount - 1) * RECORD],
      ['inside a chunk', HEADER + 2 * RECORD + 5],
      ['inside the header', 5],
      ['to nothing', 0],
    ])('detects truncation %s', async (_where, length) => {
      const target = freshKey();
      await fixture.store.put(target, await fixture.store.get(key));
      await tamper(target, (stored) => stored.subarray(0, length));

      await expectRejected(target);
      const tail = await drain(sut.read(target, wrappedKey, data.length, { start: data.length - 1, end: data.length - 1 }));
      expect(tail.error).toBeInstanceOf(BlobIntegrityError);
      expect(tail.data.length).toBe(0);
    });

    it('detects bytes appended after the final chunk', async () => {
      const target = freshKey();
      await fixture.store.put(target, await fixture.store.get(key));
      await tamper(target, (stored) => Buffer.concat([stored, randomBytes(RECORD)]));
      await expectRejected(target);
    });

    it('detects two chunks swapped', async () => {
      const target = freshKey();
      await fixture.store.put(target, await fixture.store.get(key));
      await tamper(target, (stored) => {
        const one = Buffer.from(stored.subarray(HEADER + RECORD, HEADER + 2 * RECORD));
        stored.copy(stored, HEADER + RECORD, HEADER + 2 * RECORD, HEADER + 3 * RECORD);
        one.copy(stored, HEADER + 2 * RECORD);
        return stored;
      });

      const whole = await drain(sut.read(target, wrappedKey, data.length));
      expect(whole.error).toBeInstanceOf(BlobIntegrityError);
      expectSameBytes(whole.data, data.subarray(0, CHUNK));
    });

    it('detects a full chunk posing as the final one', async () => {
      const target = freshKey();
      await fixture.store.put(target, await fixture.store.get(key));
      await tamper(target, (stored) => Buffer.concat([stored.subarray(0, HEADER + 4 * RECORD), stored.subarray(HEADER, HEADER + RECORD)]));
      await expectRejected(target, 5 * CHUNK);
    });

    it('refuses a size that does not match the stored object', async () => {
      for (const size of [data.length - 1, data.length + 1, data.length - 7, data.length + CHUNK]) {
        const whole = await drain(sut.read(key, wrappedKey, size));
        expect(whole.error, String(size)).toBeInstanceOf(BlobIntegrityError);
        expectSameBytes(whole.data, data.subarray(0, whole.data.length));
      }
    });

    it('refuses to open with another master key or a damaged wrapped key', async () => {
      const stranger = new ChunkedEncryptedStore(fixture.store, randomBytes(32), { chunkSize: CHUNK });
      await expect(stranger.read(key, wrappedKey, data.length)).rejects.toBeInstanceOf(BlobIntegrityError);
      await expect(stranger.read(key, wrappedKey, data.length, { start: 0, end: 0 })).rejects.toBeInstanceOf(BlobIntegrityError);

      // A character inside the text: the last one of base64 may carry unused bits, and changing
      // only those leaves the same bytes.
      const at = wrappedKey.length - 10;
      const flipped = wrappedKey.slice(0, at) + (wrappedKey[at] === 'A' ? 'B' : 'A') + wrappedKey.slice(at + 1);
      for (const bad of [flipped, wrappedKey.replace('v1.', 'v9.'), 'v1.', '', wrappedKey.slice(0, -4)]) {
        await expect(sut.read(key, bad, data.length), bad).rejects.toBeInstanceOf(BlobIntegrityError);
      }
    });

    it('keeps each file under its own key: a wrapped key does not open another file', async () => {
      const other = await store(data);
      const whole = await drain(sut.read(key, other.written.wrappedKey, data.length));
      expect(whole.error).toBeInstanceOf(BlobIntegrityError);
      expect(whole.data.length).toBe(0);
    });
  });

  it('stores no plaintext, and different ciphertext for the same file twice', async () => {
    const data = Buffer.from('confidential quarterly figures, do not share. '.repeat(40));
    const first = await store(data);
    const second = await store(data);
    const stored = await readAll(fixture.store.get(first.key));

    expect(stored.subarray(0, 5)).toEqual(Buffer.from([0x4e, 0x4d, 0x42, 0x45, 1]));
    for (const probe of ['confidential', 'quarterly', 'figures', 'share']) expect(stored.includes(probe)).toBe(false);
    expect(first.written.wrappedKey).not.toBe(second.written.wrappedKey);
    expect(stored.subarray(HEADER).equals((await readAll(fixture.store.get(second.key))).subarray(HEADER))).toBe(false);
  });

  it('refuses a plaintext over maxBytes and stores nothing', async () => {
    const before = await fixture.leftovers();
    const key = freshKey();

    await expect(sut.write(key, streamOf(randomBytes(1_001), 100), { maxBytes: 1_000 })).rejects.toBeInstanceOf(BlobTooLargeError);

    expect(await fixture.store.stat(key)).toBeNull();
    expect(await fixture.leftovers()).toEqual(before);
    const exact = await sut.write(freshKey(), streamOf(randomBytes(1_000), 100), { maxBytes: 1_000 });
    expect(exact.size).toBe(1_000);
  });

  it('shows every piece to onBytes and, with keepSource, leaves a refused source open for its caller', async () => {
    const plaintext = randomBytes(1_000);
    const seen: Buffer[] = [];
    const written = await sut.write(freshKey(), streamOf(plaintext, 100), { onBytes: (b) => seen.push(Buffer.from(b)) });
    expect(Buffer.concat(seen)).toEqual(plaintext);
    expect(written.sha256).toBe(sha256(plaintext));

    const source = streamOf(randomBytes(1_001), 100);
    await expect(sut.write(freshKey(), source, { maxBytes: 1_000, keepSource: true })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(source.destroyed).toBe(false);
    const dropped = streamOf(randomBytes(1_001), 100);
    await expect(sut.write(freshKey(), dropped, { maxBytes: 1_000 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(dropped.destroyed).toBe(true);
  });

  it('stores nothing when the plaintext source fails mid-way', async () => {
    const before = await fixture.leftovers();
    const key = freshKey();
    const cause = new Error('upload aborted');

    await expect(sut.write(key, failingStream(randomBytes(200_000), cause, 10_000))).rejects.toBe(cause);

    expect(await fixture.store.stat(key)).toBeNull();
    expect(await fixture.leftovers()).toEqual(before);
  });
});
