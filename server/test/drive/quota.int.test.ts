import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('storage quota per account', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let bob: TestBrowser;

  const send = async (browser: TestBrowser, name: string, bytes: number) => {
    const { body, contentType } = await multipartBody([
      { name: 'filename', value: name },
      { name: 'parent', value: '/' },
      { name: 'file', filename: name, data: Buffer.alloc(bytes, 1) },
    ]);
    return browser.request('POST', '/file-service/upload', body, { 'content-type': contentType });
  };
  const storedObjects = async () =>
    (await readdir(path.join(t.dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile())
      .length;

  beforeAll(async () => {
    t = await createTestApp({ storageQuotaBytes: 1000 });
    alice = new TestBrowser(t.app);
    bob = new TestBrowser(t.app);
    await alice.signUp();
    await bob.signUp();
  });
  afterAll(() => t.close());

  it('refuses an upload that would go over, keeps nothing of it, and frees space on delete', async () => {
    const first = await upload(alice, 'a.bin', Buffer.alloc(600, 1));
    const before = await storedObjects();
    const over = await send(alice, 'b.bin', 600);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    await t.app.background.drainJobs();
    expect(await storedObjects()).toBe(before);
    expect((await listFiles(alice)).map((f) => f.filename)).toEqual(['a.bin']);

    expect((await send(alice, 'c.bin', 400)).statusCode).toBe(201);
    expect((await send(alice, 'd.bin', 1)).json()).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    // Another account has its own quota.
    expect((await send(bob, 'e.bin', 900)).statusCode).toBe(201);

    // The trash still counts; deleting for good frees the space.
    await alice.patch('/file-service/trash', { id: first._id });
    expect((await send(alice, 'f.bin', 100)).statusCode).toBe(413);
    await alice.delete('/file-service/remove', { id: first._id });
    expect((await send(alice, 'g.bin', 600)).statusCode).toBe(201);
  });

  it('lets only as many concurrent uploads through as fit', async () => {
    const carol = new TestBrowser(t.app);
    await carol.signUp();
    const results = await Promise.all(Array.from({ length: 4 }, (_, i) => send(carol, `p${i}.bin`, 400)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
    expect(results.filter((r) => r.statusCode === 413)).toHaveLength(2);
  });
});
