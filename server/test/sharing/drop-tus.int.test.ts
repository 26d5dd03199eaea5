import type { ShareLinkDto } from '@nimbus/common';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, listFiles } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

/** Resumable uploads through a drop link, driven by the reference tus client over real HTTP. */
describe('a drop link takes resumable (tus) uploads', () => {
  let t: TestApp;
  let origin: string;
  let owner: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    owner = new TestBrowser(t.app);
    await owner.signUp();
  });
  afterAll(() => t.close());

  async function dropLink(options: Record<string, unknown> = {}) {
    const folder = await createFolder(owner, `Inbox ${randomBytes(3).toString('hex')}`);
    const response = await owner.post('/share-service/links', { itemType: 'folder', itemId: folder._id, kind: 'drop', ...options });
    expect(response.statusCode).toBe(201);
    return { folder, link: response.json() as ShareLinkDto };
  }

  const visitorHeaders = { uuid: randomUUID() };
  const endpoint = (token: string) => `${origin}/share-service/public/${token}/tus`;
  const call = (method: string, url: string, headers: Record<string, string> = {}) =>
    fetch(url, { method, headers: { ...visitorHeaders, 'tus-resumable': '1.0.0', ...headers } });

  function send(url: string, data: Buffer, options: Partial<tus.UploadOptions> = {}) {
    let resolve!: (url: string) => void;
    let reject!: (err: Error) => void;
    const done = new Promise<string>((res, rej) => ((resolve = res), (reject = rej)));
    const upload: tus.Upload = new tus.Upload(data, {
      endpoint: url,
      headers: visitorHeaders,
      metadata: { filename: 'film.bin', name: 'Grace' },
      chunkSize: 1024 * 1024,
      retryDelays: [0, 50],
      onSuccess: () => resolve(upload.url!),
      onError: reject,
      ...options,
    });
    upload.start();
    return { done, upload };
  }

  it('an upload stopped at 40 % resumes where the server got to and becomes a file of the folder, with its sender', async () => {
    const { folder, link } = await dropLink();
    const data = randomBytes(3 * 1024 * 1024 + 123);
    let stopped = false;
    const first = send(endpoint(link.token), data, {
      onProgress: (sent, total) => {
        if (!stopped && sent / total >= 0.4) {
          stopped = true;
          void first.upload.abort();
        }
      },
    });
    await expect.poll(() => stopped).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const url = first.upload.url!;
    expect(url.startsWith(`${endpoint(link.token)}/`)).toBe(true);
    const head = await call('HEAD', url);
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(data.length);

    let resentFrom = -1;
    const second = send(endpoint(link.token), data, { uploadUrl: url, onProgress: (sent) => resentFrom < 0 && (resentFrom = sent) });
    await second.done;
    expect(resentFrom).toBeGreaterThanOrEqual(offset);

    const files = await listFiles(owner, { parent: folder._id });
    expect(files.map((f) => f.filename)).toEqual(['film.bin']);
    const download = await owner.get(`/file-service/download/${files[0]!._id}`);
    expect(download.rawPayload.equals(data)).toBe(true);
    expect((await owner.get(`/share-service/drops/${files[0]!._id}`)).json()).toMatchObject({ linkId: link.id, uploaderName: 'Grace' });
  });

  it('keeps to the link: its size and count limits, its password, and its own uploads only', async () => {
    const { link } = await dropLink({ maxFiles: 1, maxFileBytes: 2 * 1024 * 1024 });
    const create = (token: string, length: number) =>
      call('POST', endpoint(token), {
        'upload-length': String(length),
        'upload-metadata': `filename ${Buffer.from('a.bin').toString('base64')}`,
      });

    expect((await create(link.token, 3 * 1024 * 1024)).status).toBe(413);
    const made = await create(link.token, 1000);
    expect(made.status).toBe(201);
    const location = made.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/share-service/public/${link.token}/tus/[A-Za-z0-9_-]{43}$`));
    // The one file the link allows is taken by the unfinished upload.
    expect((await create(link.token, 1000)).status).toBe(410);

    // Another link's visitor cannot reach it, nor can anyone through the owner's endpoint without a session.
    const other = await dropLink();
    const id = location.split('/').pop()!;
    expect((await call('HEAD', `${endpoint(other.link.token)}/${id}`)).status).toBe(404);
    expect((await call('HEAD', `${origin}/file-service/tus/${id}`)).status).toBe(401);

    // Cancelling gives the place back.
    expect((await call('DELETE', `${origin}${location}`)).status).toBe(204);
    expect((await call('HEAD', `${origin}${location}`)).status).toBe(404);
    expect((await create(link.token, 1000)).status).toBe(201);

    const locked = await dropLink({ password: 'letmein' });
    expect((await create(locked.link.token, 10)).status).toBe(401);
    const view = await owner.post('/share-service/links', { itemType: 'folder', itemId: locked.folder._id });
    expect((await create((view.json() as ShareLinkDto).token, 10)).status).toBe(404);
    expect((await call('POST', endpoint(link.token), { 'upload-length': 'lots' })).status).toBe(400);
    expect((await call('POST', endpoint(link.token), { 'upload-length': '10', 'upload-metadata': 'filename ***' })).status).toBe(400);
  });
});
