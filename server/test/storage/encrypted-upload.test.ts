import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { crc32 } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BlobTooLargeError, type BlobStore, type ByteRange } from '../../src/storage/blob-store.js';
import { ChunkedEncryptedStore, type EncryptedStoreOptions } from '../../src/storage/encrypted.store.js';
import { unwrapDataKey, wrapDataKey } from '../../src/storage/key-wrap.js';
import { expectSameBytes, failingStream, MiB, readAll, setupFs, streamOf, type DriverFixture } from './storage-fixtures.js';

// Small chunks and batches of four of them, so every batch boundary is cheap to reach.
const CHUNK = 16;
const BATCH = 4 * CHUNK;

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** The stored format written out independently of the store: what existing files on disk look like. */
function referenceSeal(key: Buffer, chunkSize: number, data: Buffer): Buffer {
  const header = Buffer.alloc(12);
  header.write('NMBE', 0, 'latin1');
  header.writeUInt8(1, 4);
  header.writeUInt32BE(chunkSize, 8);
  const count = Math.max(1, Math.ceil(data.length / chunkSize));
  const parts = [header];
  for (let i = 0; i < count; i++) {
    const nonce = Buffer.alloc(12);
    nonce.writeBigUInt64BE(BigInt(i), 4);
    const position = Buffer.alloc(9);
    position.writeBigUInt64BE(BigInt(i), 0);
    position.writeUInt8(i === count - 1 ? 1 : 0, 8);
    const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(Buffer.concat([header, position]));
    parts.push(cipher.update(data.subarray(i * chunkSize, (i + 1) * chunkSize)), cipher.final(), cipher.getAuthTag());
  }
  return Buffer.concat(parts);
}

/** A plaintext source that emits `size` bytes in `pieceSize` pieces, counting what it handed out. */
class CountingSource extends Readable {
  emitted = 0;

  constructor(
    private readonly size: number,
    private readonly pieceSize: number,
  ) {
    super({ highWaterMark: 16 * 1024 });
  }

  override _read(): void {
    const n = Math.min(this.pieceSize, this.size - this.emitted);
    if (n === 0) return void this.push(null);
    this.emitted += n;
    this.push(Buffer.alloc(n, this.emitted & 0xff));
  }
}

/** Keeps nothing: reads the body slowly and records how far behind the source it ever fell. */
class SlowSink implements BlobStore {
  received = 0;
  maxBehind = 0;

  constructor(private readonly source: CountingSource) {}

  async put(_key: string, body: Readable): Promise<{ size: number }> {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      this.received += chunk.length;
      this.maxBehind = Math.max(this.maxBehind, this.source.emitted - this.received);
      await sleep(1);
    }
    return { size: this.received };
  }
  get(_key: string, _range?: ByteRange): Promise<Readable> {
    throw new Error('not stored');
  }
  stat(): Promise<{ size: number } | null> {
    return Promise.resolve(null);
  }
  delete(): Promise<void> {
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Takes part of the body, then fails, as a full disk or a dropped connection would. */
class FailingSink implements BlobStore {
  constructor(
    private readonly inner: BlobStore,
    private readonly failAfter: number,
    readonly error: Error,
  ) {}

  async put(key: string, body: Readable): Promise<{ size: number }> {
    let seen = 0;
    const tap = new Readable({ read() {} });
    // The inner store sees the failure when it reads; it may not be listening yet when it happens.
    tap.on('error', () => undefined);
    body.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > this.failAfter) tap.destroy(this.error);
      else tap.push(chunk);
    });
    body.on('end', () => tap.push(null));
    return this.inner.put(key, tap);
  }
  get(key: string, range?: ByteRange): Promise<Readable> {
    return this.inner.get(key, range);
  }
  stat(key: string): Promise<{ size: number } | null> {
    return this.inner.stat(key);
  }
  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

describe('encrypted uploads, sealed in batches with the hash on a worker', () => {
  let fixture: DriverFixture;
  const masterKey = randomBytes(32);
  const stores: ChunkedEncryptedStore[] = [];
  let n = 0;
  const freshKey = (): string => `u${Date.now().toString(36)}${(n++).toString(36)}`;

  function storeWith(options: EncryptedStoreOptions, inner: BlobStore = fixture.store): ChunkedEncryptedStore {
    const store = new ChunkedEncryptedStore(inner, masterKey, options);
    stores.push(store);
    return store;
  }

  beforeAll(async () => {
    fixture = await setupFs();
  });
  afterEach(async () => {
    // Closing only stops the workers: the fixture's disk store stays usable.
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await fixture?.teardown();
  });

  describe.each([0, 1])('with %i hashing workers', (hashWorkers) => {
    const sizes = [0, 1, CHUNK, BATCH - 1, BATCH, BATCH + 1, 2 * BATCH, 2 * BATCH + 1, 5 * BATCH + 17];

    it.each(sizes)('stores %i bytes byte-for-byte in the existing format', async (size) => {
      const sut = storeWith({ chunkSize: CHUNK, batchBytes: BATCH, hashWorkers });
      const data = randomBytes(size);
      for (const pieceSize of [1, 7, 200]) {
        const key = freshKey();
        const written = await sut.write(key, streamOf(data, pieceSize));

        expect(written).toMatchObject({ size, sha256: sha256(data), crc32: crc32(data) });
        const dataKey = unwrapDataKey(masterKey, written.wrappedKey);
        expect(dataKey?.chunkSize).toBe(CHUNK);
        expectSameBytes(await readAll(fixture.store.get(key)), referenceSeal(dataKey!.key, CHUNK, data));
        expectSameBytes(await readAll(sut.read(key, written.wrappedKey, size)), data);
      }
    });

    it('refuses a plaintext over maxBytes mid-way and stores nothing', async () => {
      const sut = storeWith({ chunkSize: CHUNK, batchBytes: BATCH, hashWorkers });
      const before = await fixture.leftovers();
      const key = freshKey();

      await expect(sut.write(key, streamOf(randomBytes(1_001), 10), { maxBytes: 1_000 })).rejects.toBeInstanceOf(BlobTooLargeError);

      expect(await fixture.store.stat(key)).toBeNull();
      expect(await fixture.leftovers()).toEqual(before);
      const data = randomBytes(1_000);
      const exact = await sut.write(freshKey(), streamOf(data, 10), { maxBytes: 1_000 });
      expect(exact).toMatchObject({ size: 1_000, sha256: sha256(data) });
    });

    it('stores nothing when the source fails after several batches', async () => {
      const sut = storeWith({ chunkSize: CHUNK, batchBytes: BATCH, hashWorkers });
      const before = await fixture.leftovers();
      const key = freshKey();
      const cause = new Error('upload aborted');

      await expect(sut.write(key, failingStream(randomBytes(20 * BATCH), cause, 50))).rejects.toBe(cause);

      expect(await fixture.store.stat(key)).toBeNull();
      expect(await fixture.leftovers()).toEqual(before);
    });

    it('stores nothing, and stops reading the source, when the inner store fails', async () => {
      const error = new Error('disk full');
      const sut = storeWith({ chunkSize: CHUNK, batchBytes: BATCH, hashWorkers }, new FailingSink(fixture.store, 3 * BATCH, error));
      const before = await fixture.leftovers();
      const key = freshKey();
      const source = new CountingSource(1_000 * BATCH, 10);

      await expect(sut.write(key, source)).rejects.toBe(error);

      expect(source.destroyed).toBe(true);
      expect(await fixture.store.stat(key)).toBeNull();
      expect(await fixture.leftovers()).toEqual(before);
    });

    it('keeps memory bounded: a slow store slows the source down', async () => {
      const source = new CountingSource(4 * MiB, 1024);
      const sink = new SlowSink(source);
      const sut = storeWith({ chunkSize: 1024, batchBytes: 4096, hashWorkers }, sink);

      const written = await sut.write(freshKey(), source);

      expect(written.size).toBe(4 * MiB);
      // Without backpressure the whole source would be read at once, 4 MiB ahead of the sink.
      expect(sink.maxBehind).toBeLessThan(128 * 1024);
    });
  });

  it('hashes big uploads on a long-lived worker and small ones on the calling thread', async () => {
    const sut = storeWith({ chunkSize: CHUNK, batchBytes: BATCH, hashWorkers: 1 });

    await sut.write(freshKey(), streamOf(randomBytes(BATCH)));
    expect(sut.hashThreads).toBe(0);

    for (let i = 0; i < 3; i++) {
      const data = randomBytes(3 * BATCH + i);
      expect(await sut.write(freshKey(), streamOf(data))).toMatchObject({ sha256: sha256(data) });
      expect(sut.hashThreads).toBe(1);
    }

    await sut.close();
    expect(sut.hashThreads).toBe(0);
  });

  it('seals several uploads at once through one worker, each with its own hash', async () => {
    const sut = storeWith({ chunkSize: CHUNK, batchBytes: BATCH, hashWorkers: 1 });
    const files = Array.from({ length: 5 }, (_, i) => randomBytes(40 * BATCH + i * 13));

    const written = await Promise.all(files.map((data) => sut.write(freshKey(), streamOf(data, 33))));

    written.forEach((w, i) => expect(w).toMatchObject({ size: files[i]!.length, sha256: sha256(files[i]!) }));
    expect(sut.hashThreads).toBe(1);
  });

  it('stores the default layout (64 KiB chunks, 1 MiB batches) byte-for-byte as before', async () => {
    const sut = storeWith({});
    const data = randomBytes(3 * MiB + 12_345);
    const key = freshKey();

    const written = await sut.write(key, streamOf(data, 100_003));

    expect(written).toMatchObject({ size: data.length, sha256: sha256(data) });
    const dataKey = unwrapDataKey(masterKey, written.wrappedKey)!;
    expectSameBytes(await readAll(fixture.store.get(key)), referenceSeal(dataKey.key, 64 * 1024, data));
  });

  it.each([0, 1])(
    'refills the batches the disk store hands back instead of allocating one per batch (%i hashing workers)',
    async (hashWorkers) => {
      const sut = storeWith({ hashWorkers });
      // Batches of the default size: the disk store buffers only a couple of them before it holds the stream back.
      const data = randomBytes(24 * MiB + 5);
      const batchBytes = MiB + 16 * 16;
      const allocations = vi.spyOn(Buffer, 'allocUnsafeSlow');
      const key = freshKey();
      let written: Awaited<ReturnType<typeof sut.write>>;
      let batches: number;
      try {
        written = await sut.write(key, streamOf(data, 64 * 1024));
      } finally {
        batches = allocations.mock.calls.filter(([size]) => size === batchBytes).length;
        allocations.mockRestore();
      }

      expect(written).toMatchObject({ size: data.length, sha256: sha256(data) });
      expectSameBytes(
        await readAll(fixture.store.get(key)),
        referenceSeal(unwrapDataKey(masterKey, written.wrappedKey)!.key, 64 * 1024, data),
      );
      expect(batches).toBeGreaterThan(0);
      // Without them handed back, each of the 25 batches had a buffer of its own.
      expect(batches).toBeLessThanOrEqual(8);
    },
  );

  it('reads files stored before, in the reference layout', async () => {
    const sut = storeWith({});
    const data = randomBytes(200_000);
    const dataKey = { key: randomBytes(32), chunkSize: 64 * 1024 };
    const key = freshKey();
    await fixture.store.put(key, streamOf(referenceSeal(dataKey.key, dataKey.chunkSize, data)));
    const wrappedKey = wrapDataKey(masterKey, dataKey);

    expectSameBytes(await readAll(sut.read(key, wrappedKey, data.length)), data);
    expectSameBytes(await readAll(sut.read(key, wrappedKey, data.length, { start: 65_000, end: 140_000 })), data.subarray(65_000, 140_001));
  });

  it('fails an upload in progress when the store closes, stores nothing, and seals later uploads without a worker', async () => {
    const sut = storeWith({ chunkSize: CHUNK, batchBytes: BATCH, hashWorkers: 1 });
    const before = await fixture.leftovers();
    const key = freshKey();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const source = Readable.from(
      (async function* () {
        for (let i = 0; i < 10; i++) yield randomBytes(BATCH);
        await held;
        yield randomBytes(BATCH);
      })(),
    );

    const writing = sut.write(key, source);
    // Watched from the start: the upload may fail while the store is still closing.
    const failed = expect(writing).rejects.toThrow(/closed/);
    while (sut.hashThreads === 0) await sleep(5);
    await sut.close();
    release();

    await failed;
    expect(sut.hashThreads).toBe(0);
    expect(await fixture.store.stat(key)).toBeNull();
    expect(await fixture.leftovers()).toEqual(before);

    const data = randomBytes(5 * BATCH);
    expect(await sut.write(freshKey(), streamOf(data))).toMatchObject({ sha256: sha256(data) });
    expect(sut.hashThreads).toBe(0);
  });
});
