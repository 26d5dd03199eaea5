import type { ApiErrorBody, FileDto } from '@nimbus/common';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload, listFiles, listFolders } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { mountSmallDisk } from './small-disk.js';

const MiB = 1024 * 1024;
const disk = mountSmallDisk(8);

/** Files under the store's root, temporary ones included. */
async function storedFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

// Without root (or the capability to mount) there is no real small disk to fill; nothing else
// fails a write with the kernel's own ENOSPC, so the suite is skipped rather than faked.
describe.skipIf(disk === null)('a full disk during an upload (8 MiB filesystem)', () => {
  let t: TestApp;
  let me: TestBrowser;
  let root: string;

  beforeAll(async () => {
    root = path.join(disk!.dir, 'files');
    t = await createTestApp({ storage: { driver: 'fs', root }, search: { enabled: false, embeddings: null } });
    me = new TestBrowser(t.app);
    await me.signUp();
  });
  afterAll(async () => {
    await t?.close();
    disk?.unmount();
  });

  /** Nothing of a failed upload stays: no row, no stored or temporary file, the disk as it was. */
  async function expectNothingKept(filesBefore: string[], usedBefore: number, rowsBefore: number): Promise<void> {
    expect((await storedFiles(root)).sort()).toEqual(filesBefore.sort());
    expect(await disk!.used()).toBeLessThan(usedBefore + 64 * 1024);
    const rows = await sql<{ n: number }>`select count(*) as n from file`.execute(t.app.database.db);
    expect(Number(rows.rows[0]!.n)).toBe(rowsBefore);
  }

  async function snapshot(): Promise<[string[], number, number]> {
    // Bytes of files an earlier test removed go through the deletion job; let it run first.
    await t.app.background.drainJobs();
    const rows = await sql<{ n: number }>`select count(*) as n from file`.execute(t.app.database.db);
    return [await storedFiles(root), await disk!.used(), Number(rows.rows[0]!.n)];
  }

  function expectInsufficientStorage(response: { statusCode: number; json: <T>() => T }): void {
    expect(response.statusCode).toBe(507);
    const body = response.json<ApiErrorBody>();
    expect(body.code).toBe('INSUFFICIENT_STORAGE');
    expect(body.error).toMatch(/no room/);
  }

  it('a plain upload larger than the free space answers 507 and keeps nothing; a fitting one then succeeds', async () => {
    const before = await snapshot();
    const listed = await listFiles(me);
    const { body, contentType } = await multipartBody([
      { name: 'filename', value: 'huge.bin' },
      { name: 'parent', value: '/' },
      { name: 'currentID', value: 'u1' },
      { name: 'size', value: String(12 * MiB) },
      { name: 'file', filename: 'huge.bin', data: randomBytes(12 * MiB) },
    ]);
    const response = await me.request('POST', '/file-service/upload', body, { 'content-type': contentType });
    expectInsufficientStorage(response);
    await expectNothingKept(...before);
    expect(await listFiles(me)).toEqual(listed);

    const data = randomBytes(MiB);
    const file = await upload(me, 'fits.bin', data);
    expect((await me.get(`/file-service/download/${file._id}`)).rawPayload.equals(data)).toBe(true);
    await me.delete('/file-service/remove', { id: file._id });
  });

  it('a folder upload that fills the disk answers 507 and undoes its folders and earlier files', async () => {
    const before = await snapshot();
    const entries = [
      { path: 'Album/small.txt', data: randomBytes(1024) },
      { path: 'Album/deep/huge.bin', data: randomBytes(12 * MiB) },
    ];
    const { body, contentType } = await multipartBody([
      { name: 'parent', value: '/' },
      { name: 'total-files', value: String(entries.length) },
      ...entries.map((e, index) => ({
        name: 'file-data',
        value: JSON.stringify({ name: path.basename(e.path), size: e.data.length, type: 'application/octet-stream', path: e.path, index }),
      })),
      ...entries.map((e) => ({ name: 'file', filename: path.basename(e.path), data: e.data })),
    ]);
    const response = await me.request('POST', '/folder-service/upload', body, { 'content-type': contentType });
    expectInsufficientStorage(response);
    expect(await listFolders(me)).toEqual([]);
    // The small file's bytes go through the deletion job, like any discarded file's.
    await t.app.background.drainJobs();
    await expectNothingKept(...before);
  });

  it('a resumable piece that does not fit answers 507, keeps the upload where it stood, and it completes once space is freed', async () => {
    const filler = path.join(disk!.dir, 'filler');
    await writeFile(filler, Buffer.alloc(5 * MiB, 1));
    const data = randomBytes(4 * MiB);
    const tus = { 'tus-resumable': '1.0.0' };
    const created = await me.request('POST', '/file-service/tus', undefined, {
      ...tus,
      'upload-length': String(data.length),
      'upload-metadata': `filename ${Buffer.from('resumed.bin').toString('base64')}`,
    });
    expect(created.statusCode).toBe(201);
    const location = new URL(created.headers.location as string, 'http://localhost').pathname;
    const usedBefore = await disk!.used();
    const patch = (offset: number, bytes: Buffer) =>
      me.request('PATCH', location, bytes, { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' });

    expectInsufficientStorage(await patch(0, data));
    const head = await me.request('HEAD', location, undefined, tus);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('0');
    // The piece's bytes were given back, not left taking the space a retry needs.
    expect(await disk!.used()).toBeLessThan(usedBefore + 64 * 1024);

    await rm(filler);
    const done = await patch(0, data);
    expect(done.statusCode).toBe(204);
    const fileId = done.headers['nimbus-file-id'] as string;
    expect((await me.get(`/file-service/download/${fileId}`)).rawPayload.equals(data)).toBe(true);
    await me.delete('/file-service/remove', { id: fileId });
  });

  it('a WebDAV PUT that does not fit answers 507 and keeps nothing; a fitting one is stored', async () => {
    const created = await me.post('/user-service/app-passwords', { name: 'disk test' });
    expect(created.statusCode).toBe(201);
    const email = (await me.get('/user-service/user')).json<{ email: string }>().email;
    const authorization = `Basic ${Buffer.from(`${email}:${created.json<{ password: string }>().password}`).toString('base64')}`;
    const put = (name: string, bytes: Buffer) =>
      t.app.inject({ method: 'PUT', url: `/dav/${name}`, headers: { authorization }, payload: bytes });
    const before = await snapshot();

    const refused = await put('huge.bin', randomBytes(12 * MiB));
    expect(refused.statusCode).toBe(507);
    expect(refused.headers['content-type']).toMatch(/xml/);
    await expectNothingKept(...before);
    expect((await t.app.inject({ method: 'GET', url: '/dav/huge.bin', headers: { authorization } })).statusCode).toBe(404);

    const data = randomBytes(MiB);
    expect((await put('fits.bin', data)).statusCode).toBe(201);
    const files = await listFiles(me);
    expect(files.map((f: FileDto) => f.filename)).toContain('fits.bin');
  });
});
