import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';
import { check, flipByte, HOUR, integrityOf, kindsOf, putStray, storageKeyOf } from './support.js';

describe('integrity check', () => {
  // The app runs on real time (sessions stay valid); the check alone is moved into the future.
  const clock = { now: () => Date.now() };
  const later = (ms: number) => ({ now: () => Date.now() + ms });
  let t: TestApp;
  let me: TestBrowser;
  let disk: LocalDiskStore;

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
    me = new TestBrowser(t.app);
    await me.signUp();
    disk = new LocalDiskStore((t.config.storage as { root: string }).root);
  });
  afterAll(() => t.close());

  it('finds a clean drive clean', async () => {
    await upload(me, 'small.txt', 'hello');
    await upload(me, 'big.bin', randomBytes(300 * 1024));
    await upload(me, 'empty.txt', '');
    const report = await check(integrityOf(t, clock));
    expect(report.outcome).toBe('complete');
    expect(report.counts).toMatchObject({ files: 3, problems: 0, blobsListed: 3 });
    expect(report.counts.bytesVerified).toBeGreaterThan(300 * 1024);
  });

  it('reports a flipped byte as failing authentication, and --repair never removes it', async () => {
    const file = await upload(me, 'precious.bin', randomBytes(200 * 1024));
    const key = await storageKeyOf(t, file);
    await flipByte(t, key);
    const report = await check(integrityOf(t, later(48 * HOUR)), { repair: true, graceMs: 0 });
    expect(report.problems).toContainEqual(expect.objectContaining({ kind: 'corrupt-blob', fileId: file._id, key, repaired: false }));
    expect(await disk.stat(key)).not.toBeNull();
    const row = await t.app.database.db.selectFrom('file').select('id').where('id', '=', file._id).executeTakeFirst();
    expect(row).toBeDefined();
    await t.app.database.db.deleteFrom('file').where('id', '=', file._id).execute();
    await disk.delete(key);
  });

  it('gives a file stored before CRC-32s were kept the one of its bytes, when repairing only', async () => {
    const data = randomBytes(150 * 1024);
    const file = await upload(me, 'older.bin', data);
    const crcOf = async () =>
      (await t.app.database.db.selectFrom('file').select('crc32').where('id', '=', file._id).executeTakeFirstOrThrow()).crc32;
    await t.app.database.db.updateTable('file').set({ crc32: null }).where('id', '=', file._id).execute();
    expect((await check(integrityOf(t, clock))).counts.problems).toBe(0);
    expect(await crcOf()).toBeNull();
    expect((await check(integrityOf(t, clock), { repair: true })).counts.problems).toBe(0);
    expect(await crcOf()).toBe(crc32(data));
    const key = await storageKeyOf(t, file);
    await t.app.database.db.deleteFrom('file').where('id', '=', file._id).execute();
    await disk.delete(key);
  });

  it('reports a row whose blob is gone', async () => {
    const file = await upload(me, 'vanishing.txt', 'soon gone');
    const key = await storageKeyOf(t, file);
    await disk.delete(key);
    const report = await check(integrityOf(t, clock), { repair: true });
    expect(kindsOf(report)).toEqual(['missing-blob']);
    expect(report.problems[0]).toMatchObject({ fileId: file._id, key, repaired: false });
    await t.app.database.db.deleteFrom('file').where('id', '=', file._id).execute();
  });

  it('reports a size the row gets wrong, while the bytes still authenticate', async () => {
    const file = await upload(me, 'sized.txt', 'twelve bytes');
    await t.app.database.db.updateTable('file').set({ size: 13 }).where('id', '=', file._id).execute();
    const report = await check(integrityOf(t, clock));
    expect(kindsOf(report)).toEqual(['size-mismatch']);
    expect(report.problems[0]!.detail).toContain('the row says 13 bytes, the stored blob holds 12 bytes');
    await t.app.database.db.updateTable('file').set({ size: 12 }).where('id', '=', file._id).execute();
  });

  it('reports a stray blob, and --repair removes it only past the grace period', async () => {
    const key = 'straykey0123456789';
    await putStray(disk, t.config.secrets.encryptionKey, key);
    const young = await check(integrityOf(t, clock), { repair: true });
    expect(young.counts.problems).toBe(0);
    expect(young.notes).toEqual([expect.objectContaining({ kind: 'recent-stray-blob', key, repaired: false })]);
    expect(await disk.stat(key)).not.toBeNull();

    const reported = await check(integrityOf(t, later(25 * HOUR)));
    expect(reported.problems).toEqual([expect.objectContaining({ kind: 'stray-blob', key, repaired: false })]);
    expect(await disk.stat(key)).not.toBeNull();

    const repaired = await check(integrityOf(t, later(25 * HOUR)), { repair: true });
    expect(repaired.problems).toEqual([expect.objectContaining({ kind: 'stray-blob', key, repaired: true })]);
    expect(await disk.stat(key)).toBeNull();
    expect((await check(integrityOf(t, clock))).counts.problems).toBe(0);
  });

  it("never touches an unfinished resumable upload's bytes, however old", async () => {
    const data = randomBytes(200 * 1024);
    const created = await me.request('POST', '/file-service/tus', undefined, {
      'tus-resumable': '1.0.0',
      'upload-length': String(data.length),
      'upload-metadata': `filename ${Buffer.from('half.bin').toString('base64')}`,
    });
    expect(created.statusCode).toBe(201);
    const piece = await me.request('PATCH', new URL(created.headers.location!, 'http://x').pathname, data.subarray(0, 128 * 1024), {
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    });
    expect(piece.statusCode).toBe(204);
    const listed: string[] = [];
    for await (const object of disk.list()) listed.push(object.key);
    const tusKeys = listed.filter((k) => k.startsWith('tus/'));
    expect(tusKeys).toHaveLength(1);

    const report = await check(integrityOf(t, later(30 * 24 * HOUR)), { repair: true, graceMs: 0 });
    expect(report.counts.problems).toBe(0);
    expect(report.notes).toEqual([]);
    expect(await disk.stat(tusKeys[0]!)).not.toBeNull();
  });

  it('resumes after the last verified file', async () => {
    for (let i = 0; i < 22; i++) await upload(me, `many-${i}.txt`, `file ${i}`);
    const total = Number(
      (
        await t.app.database.db
          .selectFrom('file')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const integrity = integrityOf(t, clock);
    const abort = new AbortController();
    const first = await check(integrity, { signal: abort.signal, onProgress: () => abort.abort() });
    expect(first.outcome).toBe('interrupted');
    expect(first.counts.files).toBe(20);

    const resumed = await check(integrity, { resume: true });
    expect(resumed.outcome).toBe('complete');
    expect(resumed.resumedFrom).toMatchObject({ phase: 'files' });
    expect(resumed.resumedFrom!.cursor).not.toBeNull();
    expect(resumed.counts.files).toBe(total);

    // Nothing left to resume: a finished check starts afresh.
    const again = await check(integrity, { resume: true });
    expect(again.resumedFrom).toBeNull();
    expect(again.counts.files).toBe(total);
  });

  it('keeps to the rate it is given', async () => {
    await upload(me, 'paced.bin', randomBytes(3_000_000));
    const started = performance.now();
    const report = await check(integrityOf(t, clock), { rateBytesPerSecond: 2_000_000 });
    const seconds = (performance.now() - started) / 1000;
    expect(report.counts.bytesVerified).toBeGreaterThan(3_000_000);
    // Paced from the first byte; a second of slack for the last read's size and timer granularity.
    expect(seconds).toBeGreaterThanOrEqual(report.counts.bytesVerified / 2_000_000 - 1);
  });
});
