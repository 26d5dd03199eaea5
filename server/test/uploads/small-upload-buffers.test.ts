import { createHash, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChunkedEncryptedStore } from '../../src/storage/encrypted.store.js';
import { expectSameBytes, MiB, readAll, setupFs, streamOf, type DriverFixture } from '../storage/storage-fixtures.js';

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');
const BATCH = MiB;

/**
 * An upload is sealed in batches of up to 1 MiB; a small file must not cost a whole batch's buffer.
 * A folder upload of thousands of one-byte files allocated a gigabyte or more that way, and the
 * garbage collector paused the server again and again to take it back.
 */
describe.each([
  { name: 'hashing on this thread', hashWorkers: 0 },
  { name: 'hashing on a worker', hashWorkers: 1 },
])('sealing an upload, $name', ({ hashWorkers }) => {
  let fixture: DriverFixture;
  let sut: ChunkedEncryptedStore;
  let n = 0;

  beforeAll(async () => {
    fixture = await setupFs();
    sut = new ChunkedEncryptedStore(fixture.store, randomBytes(32), { batchBytes: BATCH, hashWorkers });
  });
  afterAll(async () => {
    await sut.close();
    await fixture?.teardown();
  });
  afterEach(() => vi.restoreAllMocks());

  it('a one-byte file takes no buffer anywhere near a batch', async () => {
    const allocations = vi.spyOn(Buffer, 'allocUnsafeSlow');
    const written = await sut.write(`small-${n++}`, streamOf(Buffer.from('x')));
    expect(written.size).toBe(1);
    const sizes = allocations.mock.calls.map(([size]) => size);
    expect(Math.max(0, ...sizes)).toBeLessThan(64 * 1024);
  });

  it.each([0, 1, 65_535, 65_536, 65_537, BATCH - 1, BATCH, BATCH + 1, 2 * BATCH + 3, 5 * BATCH + 77])(
    'a file of %i bytes, arriving in pieces of any size, is stored and read back whole',
    async (size) => {
      const data = randomBytes(size);
      for (const pieceSize of [1000, 64 * 1024, 3 * BATCH]) {
        const key = `file-${n++}`;
        const written = await sut.write(key, streamOf(data, pieceSize));
        expect(written).toMatchObject({ size, sha256: sha256(data) });
        expectSameBytes(await readAll(sut.read(key, written.wrappedKey, size)), data);
      }
    },
  );
});
