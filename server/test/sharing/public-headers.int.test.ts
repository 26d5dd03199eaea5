import type { ApiErrorBody, FileDto, ShareLinkDto } from '@nimbus/common';
import type { LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

const PUBLIC = '/share-service/public';
const TUS = { 'tus-resumable': '1.0.0' };
const meta = (pairs: Record<string, string>) =>
  Object.entries(pairs)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

/**
 * Every answer at a share link's addresses, whatever its status and whichever code wrote it, is
 * kept by no cache and indexed by no search engine.
 */
describe('headers of every public (share-link) answer', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let publicFile: FileDto;
  let folderLink: ShareLinkDto;
  let lockedLink: ShareLinkDto;
  let dropLink: ShareLinkDto;
  let sharedFileId: string;

  beforeAll(async () => {
    const webRoot = await mkdtemp(path.join(os.tmpdir(), 'nimbus-web-'));
    await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>Nimbus</title>');
    t = await createTestApp({ webRoot, search: { enabled: false, embeddings: null }, maxUploadBytes: 10_000 });
    alice = new TestBrowser(t.app);
    await alice.signUp();

    const shared = await upload(alice, 'public.txt', 'public text');
    publicFile = (await alice.patch(`/file-service/make-public/${shared._id}`)).json<FileDto>();
    const folder = await createFolder(alice, 'Shared');
    sharedFileId = (await upload(alice, 'inside.txt', 'inside', folder._id))._id;
    const link = async (body: Record<string, unknown>) => {
      const response = await alice.post('/share-service/links', body);
      expect(response.statusCode, response.body).toBe(201);
      return response.json<ShareLinkDto>();
    };
    folderLink = await link({ itemType: 'folder', itemId: folder._id });
    lockedLink = await link({ itemType: 'folder', itemId: folder._id, password: 'open sesame' });
    dropLink = await link({ itemType: 'folder', itemId: (await createFolder(alice, 'Inbox'))._id, kind: 'drop' });
  });
  afterAll(() => t.close());

  const visitor = () => new TestBrowser(t.app);

  function expectPublicHeaders(response: LightMyRequestResponse, status: number): void {
    expect(response.statusCode, response.body.slice(0, 300)).toBe(status);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  }
  const codeOf = (response: LightMyRequestResponse) => response.json<ApiErrorBody>().code;

  it('the link page /s/{token} and the public download page, and a HEAD of them', async () => {
    expectPublicHeaders(await visitor().get(`/s/${folderLink.token}`), 200);
    expectPublicHeaders(await visitor().request('HEAD', `/s/${folderLink.token}`), 200);
    expectPublicHeaders(await visitor().get(`/s/${folderLink.token}?view=grid`), 200);
    expectPublicHeaders(await visitor().get(`/public-download/${publicFile._id}/${publicFile.metadata.link}`), 200);
    // Pages that are not a link's keep their own caching.
    expect((await visitor().get('/home')).headers['cache-control']).toBe('no-cache');
    expect((await visitor().get('/home')).headers['x-robots-tag']).toBeUndefined();
  });

  it('a link page whose file the browser has already (a conditional request) still says no-store', async () => {
    const first = await visitor().get(`/s/${folderLink.token}`);
    const etag = first.headers.etag as string | undefined;
    const lastModified = first.headers['last-modified'] as string | undefined;
    const again = await visitor().request('GET', `/s/${folderLink.token}`, undefined, {
      ...(etag ? { 'if-none-match': etag } : {}),
      ...(lastModified ? { 'if-modified-since': lastModified } : {}),
    });
    expect(again.headers['cache-control']).toBe('private, no-store');
    expect(again.headers['x-robots-tag']).toBe('noindex, nofollow');
  });

  it("the link's info, listing, files and zip, and their 400, 401 and 404 answers", async () => {
    const v = visitor();
    expectPublicHeaders(await v.get(`${PUBLIC}/${folderLink.token}`), 200);
    expectPublicHeaders(await v.get(`${PUBLIC}/${folderLink.token}/list`), 200);
    expectPublicHeaders(await v.get(`${PUBLIC}/${folderLink.token}/files/${sharedFileId}/download`), 200);
    expectPublicHeaders(await v.get(`${PUBLIC}/${folderLink.token}/zip`), 200);

    const unknown = await v.get(`${PUBLIC}/${randomBytes(32).toString('base64url')}`);
    expectPublicHeaders(unknown, 404);
    expectPublicHeaders(await v.get(`${PUBLIC}/${folderLink.token}/files/nope/thumbnail`), 404);
    expectPublicHeaders(await v.get(`${PUBLIC}/${folderLink.token}/files/${sharedFileId}/preview`), 404);
    const noRoute = await v.get(`${PUBLIC}/${folderLink.token}/no-such-thing`);
    expectPublicHeaders(noRoute, 404);
    expect(codeOf(noRoute)).toBe('ROUTE_NOT_FOUND');
    // Addresses Fastify cannot route at all: a malformed escape, a part over its length limit.
    const badEscape = await v.get(`${PUBLIC}/${folderLink.token}/files/%E0%A4%A/download`);
    expectPublicHeaders(badEscape, 400);
    expect(codeOf(badEscape)).toBe('VALIDATION_FAILED');
    expectPublicHeaders(await v.get(`${PUBLIC}/${'t'.repeat(120)}/list`), 400);
    const malformed = await v.get(`${PUBLIC}/short`);
    expectPublicHeaders(malformed, 400);
    expect(codeOf(malformed)).toBe('VALIDATION_FAILED');

    const locked = await v.get(`${PUBLIC}/${lockedLink.token}/list`);
    expectPublicHeaders(locked, 401);
    expect(codeOf(locked)).toBe('PASSWORD_REQUIRED');
  });

  it('unlock: without the browser id (400), a wrong password (401), throttled (429), and right (200)', async () => {
    const noBrowserId = await visitor().request('POST', `${PUBLIC}/${lockedLink.token}/unlock`, { password: 'x' }, { uuid: undefined });
    expectPublicHeaders(noBrowserId, 400);
    expect(codeOf(noBrowserId)).toBe('MISSING_BROWSER_ID');
    const badBody = await visitor().request('POST', `${PUBLIC}/${lockedLink.token}/unlock`, '{', { 'content-type': 'application/json' });
    expectPublicHeaders(badBody, 400);

    expectPublicHeaders(await visitor().post(`${PUBLIC}/${lockedLink.token}/unlock`, { password: 'open sesame' }), 200);

    const guesser = visitor();
    guesser.remoteAddress = '10.77.0.1';
    let answer = await guesser.post(`${PUBLIC}/${lockedLink.token}/unlock`, { password: 'guess' });
    expectPublicHeaders(answer, 401);
    for (let i = 0; i < 50 && answer.statusCode !== 429; i++) {
      answer = await guesser.post(`${PUBLIC}/${lockedLink.token}/unlock`, { password: `guess ${i}` });
    }
    expectPublicHeaders(answer, 429);
    expect(answer.headers['retry-after']).toBeDefined();
  });

  it('a drop upload: without the browser id (400), too large (413), and taken (201)', async () => {
    const { body, contentType } = await multipartBody([{ name: 'file', filename: 'note.txt', data: 'from a guest' }]);
    const url = `${PUBLIC}/${dropLink.token}/upload`;
    const noBrowserId = await visitor().request('POST', url, body, { 'content-type': contentType, uuid: undefined });
    expectPublicHeaders(noBrowserId, 400);
    expect(codeOf(noBrowserId)).toBe('MISSING_BROWSER_ID');
    const big = await multipartBody([{ name: 'file', filename: 'big.bin', data: randomBytes(200_000) }]);
    expectPublicHeaders(await visitor().request('POST', url, big.body, { 'content-type': big.contentType }), 413);
    expectPublicHeaders(await visitor().request('POST', url, body, { 'content-type': contentType }), 201);
  });

  it('tus through a drop link: every answer, from OPTIONS to the last PATCH, and its errors', async () => {
    const v = visitor();
    const endpoint = `${PUBLIC}/${dropLink.token}/tus`;
    expectPublicHeaders(await v.request('OPTIONS', endpoint, undefined, TUS), 204);
    const data = Buffer.from('resumable from a guest');
    const created = await v.request('POST', endpoint, undefined, {
      ...TUS,
      'upload-length': String(data.length),
      'upload-metadata': meta({ filename: 'guest.txt' }),
    });
    expectPublicHeaders(created, 201);
    const location = created.headers.location as string;
    expectPublicHeaders(await v.request('HEAD', location, undefined, TUS), 200);
    const piece = (offset: number) => ({ ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' });
    const last = await v.request('PATCH', location, data, piece(0));
    expectPublicHeaders(last, 204);
    expect(last.headers['upload-offset']).toBe(String(data.length));
    expectPublicHeaders(await v.request('PATCH', location, data, piece(3)), 409);

    expectPublicHeaders(await v.request('HEAD', `${endpoint}/${randomBytes(32).toString('base64url')}`, undefined, TUS), 404);
    expectPublicHeaders(await v.request('HEAD', location), 412);
    const noBrowserId = await v.request('POST', endpoint, undefined, { ...TUS, 'upload-length': '1', uuid: undefined });
    expectPublicHeaders(noBrowserId, 400);
    expect(codeOf(noBrowserId)).toBe('MISSING_BROWSER_ID');
    expectPublicHeaders(await v.request('POST', endpoint, undefined, { ...TUS, 'upload-length': 'lots' }), 400);
  });

  it('a file’s public link: info and download, and their 400 and 404 answers', async () => {
    const token = publicFile.metadata.link!;
    expectPublicHeaders(await visitor().get(`/file-service/public/info/${publicFile._id}/${token}`), 200);
    expectPublicHeaders(await visitor().get(`/file-service/public/download/${publicFile._id}/${token}`), 200);
    expectPublicHeaders(await visitor().request('HEAD', `/file-service/public/download/${publicFile._id}/${token}`), 200);
    expectPublicHeaders(await visitor().get(`/file-service/public/info/${publicFile._id}/wrong`), 404);
    expectPublicHeaders(await visitor().get(`/file-service/public/download/${publicFile._id}/wrong`), 404);
    expectPublicHeaders(await visitor().get(`/file-service/public/info/${publicFile._id}/bad!token`), 400);
    expectPublicHeaders(await visitor().get(`/file-service/public/nothing-here`), 404);
  });

  it('leaves the owner’s own answers alone', async () => {
    const own = await alice.get(`/file-service/info/${publicFile._id}`);
    expect(own.statusCode).toBe(200);
    expect(own.headers['x-robots-tag']).toBeUndefined();
    expect(own.headers['cache-control']).not.toBe('private, no-store');
  });
});
