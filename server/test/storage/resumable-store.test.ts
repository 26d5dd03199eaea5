import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealChunks } from '../../src/storage/chunk-cipher.js';
import { encodeHeader } from '../../src/storage/chunk-format.js';
import { ChunkedEncryptedStore } from '../../src/storage/encrypted.store.js';
import { HashPool } from '../../src/storage/hash-pool.js';
import { unwrapDataKey } from '../../src/storage/key-wrap.js';
import { ResumableStore } from '../../src/storage/resumable-store.js';
import { drivers, readAll, type DriverFixture } from './storage-fixtures.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(drivers)('$name resumable store', ({ setup }) => {
  let fixture: DriverFixture;
  const masterKey = randomBytes(32);
  beforeAll(async () => {
    fixture = await setup();
  });
  afterAll(() => fixture.teardown());

  async function storedInTwoPieces(data: Buffer, cut: number) {
    const store = new ResumableStore(fixture.store, masterKey, { chunkSize: 64 * 1024 });
    const target = store.begin(`resumable-${randomBytes(6).toString('hex')}`, data.length);
    const kept = await store.append(target, Readable.from([data.subarray(0, cut)]), { offset: 0, segment: 0, keepPartial: true });
    await store.append(target, Readable.from([data.subarray(kept)]), { offset: kept, segment: 1, keepPartial: true });
    return { store, target };
  }

  it('completing again after a stop between the join and the file row gives the same whole object', async () => {
    const data = randomBytes(300 * 1024 + 7);
    const { store, target } = await storedInTwoPieces(data, 130 * 1024);
    const first = await store.complete(target, 2, undefined, 16);
    // The process stopped here, before the file row: the next one completes the upload again.
    const again = await store.complete(target, 2, undefined, 16);
    expect(again).toEqual(first);
    expect(first.digest).toEqual({ sha256: sha256(data), crc32: crc32(data) });
    expect(first.head).toEqual(data.subarray(0, 16));
    const encrypted = new ChunkedEncryptedStore(fixture.store, masterKey);
    const bytes = await readAll(encrypted.read(target.storageKey, target.wrappedKey, data.length));
    expect(bytes.equals(data)).toBe(true);
    expect((await fixture.leftovers()).filter((k) => k.includes('tus/'))).toEqual([]);
  });

  it('does not take a shorter object under the final key for the joined one', async () => {
    const data = randomBytes(200 * 1024);
    const { store, target } = await storedInTwoPieces(data, 70 * 1024);
    await fixture.store.put(target.storageKey, Readable.from([Buffer.from('not the upload')]));
    const done = await store.complete(target, 2, undefined, 16);
    expect(done.digest).toEqual({ sha256: sha256(data), crc32: crc32(data) });
  });

  it.each([1, 0])('stores pieces of several batches byte for byte as sealed record by record, hashed on %i threads', async (threads) => {
    const pool = new HashPool(threads);
    try {
      const store = new ResumableStore(fixture.store, masterKey, { chunkSize: 64 * 1024, hashPool: pool });
      const data = randomBytes(3 * 1024 * 1024 + 100 * 1024 + 5);
      const target = store.begin(`resumable-${randomBytes(6).toString('hex')}`, data.length);
      const hash = store.startHash();
      let offset = 0;
      for (const [segment, cut] of [1_500_000, 2_900_000, data.length].entries()) {
        offset += await store.append(target, Readable.from([data.subarray(offset, cut)]), { offset, segment, keepPartial: true, hash });
      }
      expect(offset).toBe(data.length);
      const done = await store.complete(target, 3, hash, 16);

      expect(done.digest).toEqual({ sha256: sha256(data), crc32: crc32(data) });
      const { key } = unwrapDataKey(masterKey, target.wrappedKey)!;
      const header = encodeHeader(64 * 1024);
      const expected = Buffer.concat([header, ...sealChunks({ key, header, chunkSize: 64 * 1024 }, 0, data, true)]);
      expect((await readAll(fixture.store.get(target.storageKey))).equals(expected)).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
