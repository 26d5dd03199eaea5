import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readlink, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobNotFoundError } from '../../src/storage/blob-store.js';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';
import { failingStream, readAll, streamOf } from './storage-fixtures.js';

describe('local disk store', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'nimbus-disk-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('files objects in hash-sharded folders under the root', async () => {
    const store = new LocalDiskStore(root);
    await store.put('abc123', streamOf(Buffer.from('one')));
    await store.put('thumbs/abc123', streamOf(Buffer.from('two')));

    const shard = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 2);
    const files = (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
    expect(files.map((e) => path.relative(root, path.join(e.parentPath, e.name))).sort()).toEqual(
      [path.join(shard('abc123'), 'abc123'), path.join(shard('thumbs/abc123'), 'thumbs.abc123')].sort(),
    );
  });

  it('writes into a temp file and renames it into place only when complete', async () => {
    const store = new LocalDiskStore(root);
    const body = new PassThrough();
    const put = store.put('pending', body);
    body.write(randomBytes(10_000));
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(await readdir(path.join(root, '.tmp'))).toHaveLength(1);
    expect(await store.stat('pending')).toBeNull();

    body.end();
    await put;
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
    expect(await store.stat('pending')).toEqual({ size: 10_000 });
  });

  it('writes a body of many tiny pieces, and of strings, exactly', async () => {
    const store = new LocalDiskStore(root);
    const data = randomBytes(50_000);
    await store.put('tiny', streamOf(data, 3));
    await store.put('text', Readable.from(['nimbus ', 'drive']));

    expect((await readAll(store.get('tiny'))).equals(data)).toBe(true);
    expect((await readAll(store.get('text'))).toString()).toBe('nimbus drive');
  });

  it('hands each piece back to a body that recycles them only once it is written', async () => {
    const store = new LocalDiskStore(root);
    const data = randomBytes(300_000);
    const pieces: Buffer[] = [];
    for (let at = 0; at < data.length; at += 10_000) pieces.push(Buffer.from(data.subarray(at, at + 10_000)));
    const copies = pieces.map((p) => Buffer.from(p));
    const recycled: Buffer[] = [];
    const body = Object.assign(Readable.from(pieces), {
      // The producer refills a piece it got back: had it not been written yet, the file would show it.
      recycle: (piece: Buffer) => (recycled.push(piece), piece.fill(0)),
    });
    await store.put('recycled', body);
    await store.writeAt('grown', 0, Object.assign(Readable.from(copies), { recycle: (p: Buffer) => p.fill(0) }));

    expect((await readAll(store.get('recycled'))).equals(data)).toBe(true);
    expect((await readAll(store.get('grown'))).equals(data)).toBe(true);
    expect(recycled).toHaveLength(pieces.length);
    expect(recycled.every((piece, i) => piece === pieces[i])).toBe(true);
  });

  it('removes the temp file when the source fails or closes before its end, and keeps no file open', async () => {
    const store = new LocalDiskStore(root);
    await expect(store.put('broken', failingStream(randomBytes(300_000), new Error('cut')))).rejects.toThrow('cut');
    const cut = new PassThrough();
    const put = store.put('cut', cut);
    cut.write(randomBytes(200_000));
    setTimeout(() => cut.destroy(), 20);
    await expect(put).rejects.toThrow(/premature close/i);
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
    expect(await store.stat('broken')).toBeNull();
    expect(await store.stat('cut')).toBeNull();
    expect(await openFilesUnder(root)).toBe(0);
  });

  it('makes its shard folders again when they were removed behind its back', async () => {
    const store = new LocalDiskStore(root);
    const removeShards = async () => {
      for (const name of await readdir(root)) if (name !== '.tmp') await rm(path.join(root, name), { recursive: true });
    };
    await store.put('first', streamOf(Buffer.from('one')));
    await store.writeAt('tus/part', 0, streamOf(Buffer.from('moved')));
    await removeShards();
    await store.put('first', streamOf(Buffer.from('again')));
    expect((await readAll(store.get('first'))).toString()).toBe('again');

    await removeShards();
    await store.writeAt('tus/part', 0, streamOf(Buffer.from('moved')));
    await expect(store.writeAt('tus/other', 5, streamOf(Buffer.from('x')))).rejects.toBeInstanceOf(BlobNotFoundError);
    await store.promote('tus/part', 'first');
    await removeShards();
    await store.put('tus/part', streamOf(Buffer.from('anew')));
    await store.promote('tus/part', 'first');
    expect((await readAll(store.get('first'))).toString()).toBe('anew');
    await expect(store.promote('tus/gone', 'first')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('sweeps stale temp files left by a crash, and only those', async () => {
    await mkdir(path.join(root, '.tmp'), { recursive: true });
    const stale = path.join(root, '.tmp', 'stale');
    const fresh = path.join(root, '.tmp', 'fresh');
    await writeFile(stale, 'half an upload');
    await writeFile(fresh, 'an upload in progress elsewhere');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(stale, twoHoursAgo, twoHoursAgo);

    const store = new LocalDiskStore(root, { staleTempMs: 60 * 60 * 1000 });
    await store.put('first', streamOf(Buffer.from('x')));

    expect(await readdir(path.join(root, '.tmp'))).toEqual(['fresh']);
  });

  it('creates its root on first write', async () => {
    const store = new LocalDiskStore(path.join(root, 'nested', 'files'));
    await store.put('k', streamOf(Buffer.from('x')));
    expect(await store.stat('k')).toEqual({ size: 1 });
  });

  it('reads objects of every size around its read sizes exactly, whole and in ranges', async () => {
    const store = new LocalDiskStore(root);
    const [first, read] = [128 * 1024, 512 * 1024];
    for (const size of [0, 1, first - 1, first, first + 1, first + read, first + read + 1, first + 2 * read + 3]) {
      const body = randomBytes(size);
      await store.put(`sized-${size}`, streamOf(body));
      expect((await readAll(store.get(`sized-${size}`))).equals(body)).toBe(true);
      if (size < 2) continue;
      const range = { start: 1, end: size + 10 };
      expect((await readAll(store.get(`sized-${size}`, range))).equals(body.subarray(1))).toBe(true);
    }
  });

  it('reads a small object whole in one buffer: one byte past the size expected, to show a longer one', async () => {
    const store = new LocalDiskStore(root);
    for (const size of [0, 1, 4096, 100_000]) {
      const body = randomBytes(size);
      await store.put(`whole-${size}`, streamOf(body));
      expect((await store.readWhole(`whole-${size}`, size)).equals(body)).toBe(true);
      expect((await store.readWhole(`whole-${size}`, size + 5)).equals(body)).toBe(true);
      if (size > 0) expect((await store.readWhole(`whole-${size}`, size - 1)).equals(body)).toBe(true);
      if (size > 1) expect((await store.readWhole(`whole-${size}`, 0)).equals(body.subarray(0, 1))).toBe(true);
    }
    await expect(store.readWhole('absent', 10)).rejects.toBeInstanceOf(BlobNotFoundError);
    for (const bad of [-1, 1.5, Number.NaN]) await expect(store.readWhole('whole-1', bad)).rejects.toBeInstanceOf(RangeError);
    await expect(store.readWhole('../escape', 1)).rejects.toThrow();
    await expect.poll(() => openFilesUnder(root)).toBe(0);
  });

  it('closes the file however its stream ends: read whole, stopped early, or never read', async () => {
    const store = new LocalDiskStore(root);
    await store.put('held', streamOf(randomBytes(3 * 512 * 1024)));
    await readAll(store.get('held'));
    const stopped = await store.get('held');
    for await (const piece of stopped) if (piece) break;
    const unread = await store.get('held');
    unread.destroy();
    await expect.poll(() => openFilesUnder(root)).toBe(0);
  });

  describe('growing an object in place', () => {
    it('writes each piece at its position, cutting off what lay past it, then promotes it whole', async () => {
      const store = new LocalDiskStore(root);
      const data = randomBytes(300_000);
      await store.writeAt('tus/part', 0, streamOf(data.subarray(0, 120_000), 3));
      // A piece cut short earlier left bytes past 100,000 that the next piece replaces.
      await store.writeAt('tus/part', 100_000, streamOf(data.subarray(100_000, 200_000)));
      await store.writeAt('tus/part', 200_000, streamOf(data.subarray(200_000)));
      expect(await store.stat('tus/part')).toEqual({ size: data.length });

      await store.promote('tus/part', 'final');
      expect(await store.stat('tus/part')).toBeNull();
      expect((await readAll(store.get('final'))).equals(data)).toBe(true);
      expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
    });

    it('starts anew at position 0, and refuses a later piece of an object that is not there', async () => {
      const store = new LocalDiskStore(root);
      await store.writeAt('tus/a', 0, streamOf(Buffer.from('first attempt, longer')));
      await store.writeAt('tus/a', 0, streamOf(Buffer.from('again')));
      expect((await readAll(store.get('tus/a'))).toString()).toBe('again');
      await expect(store.writeAt('tus/missing', 10, streamOf(Buffer.from('x')))).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.writeAt('tus/a', -1, streamOf(Buffer.from('x')))).rejects.toThrow(RangeError);
      await expect(store.promote('tus/missing', 'final')).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('keeps what a failing piece wrote before it broke, for the next piece to cut off', async () => {
      const store = new LocalDiskStore(root);
      await store.writeAt('tus/b', 0, streamOf(Buffer.alloc(1000, 1)));
      await expect(store.writeAt('tus/b', 1000, failingStream(randomBytes(200_000), new Error('cut')))).rejects.toThrow('cut');
      await store.writeAt('tus/b', 1000, streamOf(Buffer.alloc(10, 2)));
      const stored = await readAll(store.get('tus/b'));
      expect(stored.length).toBe(1010);
      expect(stored.subarray(1000).equals(Buffer.alloc(10, 2))).toBe(true);
    });
  });
});

/** Descriptors this process holds on files under `root`. */
async function openFilesUnder(root: string): Promise<number> {
  const fds = await readdir('/proc/self/fd');
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets.filter((target) => target.startsWith(root)).length;
}
