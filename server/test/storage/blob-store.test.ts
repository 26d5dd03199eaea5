import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidBlobKeyError } from '../../src/storage/blob-key.js';
import { BlobNotFoundError } from '../../src/storage/blob-store.js';
import { drivers, expectSameBytes, failingStream, MiB, readAll, streamOf, type DriverFixture } from './storage-fixtures.js';

const HOSTILE_KEYS = [
  '',
  '.',
  '..',
  '../escape',
  'a/../../etc/passwd',
  '/etc/passwd',
  'a/b/c',
  'a//b',
  'a/',
  '/a',
  'a\\..\\b',
  'a.b',
  '.tmp',
  'with space',
  'nul\0byte',
  'ünïcode',
  'x'.repeat(300),
];

describe.each(drivers)('$name blob store', ({ setup }) => {
  let fixture: DriverFixture;
  let n = 0;
  const freshKey = (): string => `k${Date.now().toString(36)}${(n++).toString(36)}`;

  beforeAll(async () => {
    fixture = await setup();
  });
  afterAll(async () => {
    await fixture?.teardown();
  });

  it('puts, gets, stats and deletes an object', async () => {
    const { store } = fixture;
    const key = freshKey();
    const data = randomBytes(100_000);

    await expect(store.put(key, streamOf(data))).resolves.toEqual({ size: data.length });
    expectSameBytes(await readAll(store.get(key)), data);
    expect(await store.stat(key)).toEqual({ size: data.length });

    await store.delete(key);
    expect(await store.stat(key)).toBeNull();
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('keeps namespaced keys apart from plain ones', async () => {
    const { store } = fixture;
    const name = freshKey();
    await store.put(name, streamOf(Buffer.from('plain')));
    await store.put(`thumbs/${name}`, streamOf(Buffer.from('namespaced')));

    expect((await readAll(store.get(name))).toString()).toBe('plain');
    expect((await readAll(store.get(`thumbs/${name}`))).toString()).toBe('namespaced');
  });

  it('stores an empty object', async () => {
    const key = freshKey();
    await expect(fixture.store.put(key, streamOf(Buffer.alloc(0)))).resolves.toEqual({ size: 0 });
    expect(await fixture.store.stat(key)).toEqual({ size: 0 });
    expect(await readAll(fixture.store.get(key))).toEqual(Buffer.alloc(0));
  });

  it('replaces an object put again under the same key', async () => {
    const key = freshKey();
    await fixture.store.put(key, streamOf(Buffer.from('first version')));
    await fixture.store.put(key, streamOf(Buffer.from('second')));
    expect((await readAll(fixture.store.get(key))).toString()).toBe('second');
  });

  it('streams an object larger than several upload parts', async () => {
    const key = freshKey();
    const data = randomBytes(12 * MiB + 12345);
    await expect(fixture.store.put(key, streamOf(data, 256 * 1024))).resolves.toEqual({ size: data.length });
    expectSameBytes(await readAll(fixture.store.get(key)), data);
    await fixture.store.delete(key);
  });

  describe('ranges', () => {
    const data = randomBytes(10_000);
    let key: string;
    beforeAll(async () => {
      key = freshKey();
      await fixture.store.put(key, streamOf(data));
    });

    it.each([
      ['first byte', 0, 0],
      ['last byte', 9_999, 9_999],
      ['middle', 1_234, 5_678],
      ['whole object', 0, 9_999],
    ])('reads the %s', async (_name, start, end) => {
      expectSameBytes(await readAll(fixture.store.get(key, { start, end })), data.subarray(start, end + 1));
    });

    it('clips a range that runs past the end', async () => {
      expectSameBytes(await readAll(fixture.store.get(key, { start: 9_990, end: 20_000 })), data.subarray(9_990));
    });

    it('yields nothing for a range that starts past the end', async () => {
      expect(await readAll(fixture.store.get(key, { start: 10_000, end: 10_010 }))).toEqual(Buffer.alloc(0));
    });

    it('refuses a malformed range', async () => {
      await expect(fixture.store.get(key, { start: 5, end: 4 })).rejects.toBeInstanceOf(RangeError);
      await expect(fixture.store.get(key, { start: -1, end: 4 })).rejects.toBeInstanceOf(RangeError);
    });
  });

  it('reports an absent key', async () => {
    const key = freshKey();
    await expect(fixture.store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(fixture.store.get(key, { start: 0, end: 10 })).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await fixture.store.stat(key)).toBeNull();
    await expect(fixture.store.delete(key)).resolves.toBeUndefined();
  });

  it('shows nothing under the key until every byte is stored', async () => {
    const key = freshKey();
    const body = new PassThrough();
    const put = fixture.store.put(key, body);
    body.write(randomBytes(100_000));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await fixture.store.stat(key)).toBeNull();

    body.end(randomBytes(1_000));
    await expect(put).resolves.toEqual({ size: 101_000 });
    expect(await fixture.store.stat(key)).toEqual({ size: 101_000 });
  });

  it.each([
    ['before any upload part is complete', 200_000],
    ['after several upload parts', 12 * MiB],
  ])('leaves nothing behind when the source fails %s', async (_when, sent) => {
    const before = await fixture.leftovers();
    const key = freshKey();
    const cause = new Error('client went away');

    await expect(fixture.store.put(key, failingStream(randomBytes(sent), cause))).rejects.toBe(cause);

    expect(await fixture.store.stat(key)).toBeNull();
    await expect(fixture.store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await fixture.leftovers()).toEqual(before);
  });

  it('stores concurrent puts of different keys independently', async () => {
    const items = Array.from({ length: 16 }, (_, i) => ({ key: freshKey(), data: randomBytes(50_000 + i * 997) }));
    await Promise.all(items.map(({ key, data }) => fixture.store.put(key, streamOf(data, 4096))));
    for (const { key, data } of items) {
      expectSameBytes(await readAll(fixture.store.get(key)), data);
    }
  });

  it('refuses keys that are not plain URL-safe names, touching nothing', async () => {
    const before = await fixture.leftovers();
    for (const key of HOSTILE_KEYS) {
      await expect(fixture.store.put(key, streamOf(Buffer.from('x'))), key).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(fixture.store.get(key), key).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(fixture.store.stat(key), key).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(fixture.store.delete(key), key).rejects.toBeInstanceOf(InvalidBlobKeyError);
    }
    expect(await fixture.leftovers()).toEqual(before);
  });
});
