import type { FileDto, ShareLinkDto } from '@nimbus/common';
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

interface LogLine {
  msg: string;
  reqId?: string;
  req?: { url?: string };
}

const PUBLIC = '/share-service/public';
const TUS = { 'tus-resumable': '1.0.0' };

/** Link and e-mailed tokens never reach the request log, whichever address carries them. */
describe('the request log leaves out tokens in addresses', () => {
  let t: TestApp;
  let text = '';
  const lines: LogLine[] = [];
  let alice: TestBrowser;
  let publicFile: FileDto;
  let folderLink: ShareLinkDto;
  let dropLink: ShareLinkDto;
  let fileId: string;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString('utf8');
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    const webRoot = await mkdtemp(path.join(os.tmpdir(), 'nimbus-web-'));
    await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>Nimbus</title>');
    t = await createTestApp({ logLevel: 'info', webRoot, search: { enabled: false, embeddings: null } }, { logStream: sink });
    alice = new TestBrowser(t.app);
    await alice.signUp();
    const shared = await upload(alice, 'public.txt', 'public text');
    publicFile = (await alice.patch(`/file-service/make-public/${shared._id}`)).json<FileDto>();
    const folder = await createFolder(alice, 'Shared');
    fileId = (await upload(alice, 'inside.txt', 'inside', folder._id))._id;
    folderLink = (await alice.post('/share-service/links', { itemType: 'folder', itemId: folder._id })).json<ShareLinkDto>();
    const inbox = await createFolder(alice, 'Inbox');
    dropLink = (await alice.post('/share-service/links', { itemType: 'folder', itemId: inbox._id, kind: 'drop' })).json<ShareLinkDto>();
  });
  afterAll(() => t.close());

  let seen = 0;
  /**
   * The lines of the one request made since the last check: none holds the secret, and its
   * "incoming request" line shows the address without it.
   */
  function expectRedacted(secret: string, shown: string): void {
    const fresh = lines.slice(seen);
    seen = lines.length;
    const incoming = fresh.filter((l) => l.msg === 'incoming request');
    expect(incoming).toHaveLength(1);
    const ofRequest = fresh.filter((l) => l.reqId === incoming[0]!.reqId);
    expect(JSON.stringify(ofRequest)).not.toContain(secret);
    expect(incoming[0]!.req?.url).toBe(shown);
  }

  it('API routes with a token parameter, matched or not', async () => {
    seen = lines.length;
    const token = folderLink.token;
    const cases: [string, string][] = [
      [`${PUBLIC}/${token}`, `${PUBLIC}/[redacted]`],
      [`${PUBLIC}/${token}/list?folder=${fileId}`, `${PUBLIC}/[redacted]/list?folder=${fileId}`],
      [`${PUBLIC}/${token}/files/${fileId}/download`, `${PUBLIC}/[redacted]/files/${fileId}/download`],
      [`${PUBLIC}/${token}/files/${fileId}/thumbnail`, `${PUBLIC}/[redacted]/files/${fileId}/thumbnail`],
      [`${PUBLIC}/${token}/files/${fileId}/preview`, `${PUBLIC}/[redacted]/files/${fileId}/preview`],
      [`${PUBLIC}/${token}/zip`, `${PUBLIC}/[redacted]/zip`],
      // No route here: still a link's address.
      [`${PUBLIC}/${token}/no-such-thing/x`, `${PUBLIC}/[redacted]/no-such-thing/x`],
      [`${PUBLIC}/${token}/files/%E0%A4%A/download`, `${PUBLIC}/[redacted]/files/%E0%A4%A/download`],
      [`/file-service/public/info/${publicFile._id}/${publicFile.metadata.link}`, `/file-service/public/info/${publicFile._id}/[redacted]`],
      [
        `/file-service/public/download/${publicFile._id}/${publicFile.metadata.link}`,
        `/file-service/public/download/${publicFile._id}/[redacted]`,
      ],
    ];
    for (const [url, shown] of cases) {
      await new TestBrowser(t.app).get(url);
      const secret = url.includes(token) ? token : publicFile.metadata.link!;
      expectRedacted(secret, shown);
    }
  });

  it('unlock, drop uploads and tus through a link, and an answer refused before any route ran', async () => {
    const token = dropLink.token;
    seen = lines.length;
    await new TestBrowser(t.app).post(`${PUBLIC}/${folderLink.token}/unlock`, { password: 'x' });
    expectRedacted(folderLink.token, `${PUBLIC}/[redacted]/unlock`);
    await new TestBrowser(t.app).request('POST', `${PUBLIC}/${folderLink.token}/unlock`, { password: 'x' }, { uuid: undefined });
    expectRedacted(folderLink.token, `${PUBLIC}/[redacted]/unlock`);

    const { body, contentType } = await multipartBody([{ name: 'file', filename: 'note.txt', data: 'from a guest' }]);
    await new TestBrowser(t.app).request('POST', `${PUBLIC}/${token}/upload`, body, { 'content-type': contentType });
    expectRedacted(token, `${PUBLIC}/[redacted]/upload`);

    const v = new TestBrowser(t.app);
    const created = await v.request('POST', `${PUBLIC}/${token}/tus`, undefined, {
      ...TUS,
      'upload-length': '3',
      'upload-metadata': `filename ${Buffer.from('a.txt').toString('base64')}`,
    });
    expect(created.statusCode).toBe(201);
    expectRedacted(token, `${PUBLIC}/[redacted]/tus`);
    const location = created.headers.location as string;
    const uploadId = location.split('/').pop()!;
    await v.request('HEAD', location, undefined, TUS);
    expectRedacted(token, `${PUBLIC}/[redacted]/tus/${uploadId}`);
    await v.request('PATCH', location, Buffer.from('abc'), {
      ...TUS,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    });
    expectRedacted(token, `${PUBLIC}/[redacted]/tus/${uploadId}`);
    await v.request('OPTIONS', `${PUBLIC}/${token}/tus`);
    expectRedacted(token, `${PUBLIC}/[redacted]/tus`);
  });

  it('the web app’s pages that carry a token', async () => {
    const secret = randomBytes(32).toString('base64url');
    const pages: [string, string][] = [
      [`/s/${secret}`, '/s/[redacted]'],
      [`/s/${secret}?view=list`, '/s/[redacted]?view=list'],
      [`/public-download/${publicFile._id}/${secret}`, `/public-download/${publicFile._id}/[redacted]`],
      [`/reset-password/${secret}`, '/reset-password/[redacted]'],
      [`/verify-email/${secret}`, '/verify-email/[redacted]'],
    ];
    seen = lines.length;
    for (const [url, shown] of pages) {
      expect((await new TestBrowser(t.app).get(url)).statusCode).toBe(200);
      expectRedacted(secret, shown);
    }
  });

  it('a token in the query string, under any name that says so', async () => {
    const secret = randomBytes(32).toString('base64url');
    seen = lines.length;
    await new TestBrowser(t.app).get(`/home?token=${secret}&tab=1`);
    expectRedacted(secret, '/home?token=[redacted]&tab=1');
    await new TestBrowser(t.app).get(`/file-service/list?parent=%2F&access_token=${secret}`);
    expectRedacted(secret, '/file-service/list?parent=%2F&access_token=[redacted]');
    await new TestBrowser(t.app).get(`/s/${secret}?resetToken=${secret}`);
    expectRedacted(secret, '/s/[redacted]?resetToken=[redacted]');
  });

  it('keeps every other address as it was', async () => {
    seen = lines.length;
    await alice.get(`/file-service/info/${publicFile._id}`);
    expectRedacted(folderLink.token, `/file-service/info/${publicFile._id}`);
    expect(text).not.toContain(folderLink.token);
    expect(text).not.toContain(dropLink.token);
  });
});
