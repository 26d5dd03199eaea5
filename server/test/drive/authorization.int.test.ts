import type { FileDto, FolderDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, listFiles, listFolders, upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe("another user's ids answer 404 and change nothing", () => {
  let t: TestApp;
  let alice: TestBrowser;
  let mallory: TestBrowser;
  let file: FileDto;
  let folder: FolderDto;
  let mine: FolderDto;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    mallory = new TestBrowser(t.app);
    await alice.signUp();
    await mallory.signUp();
    folder = await createFolder(alice, 'private');
    file = await upload(alice, 'secret.txt', 'secret', folder._id);
    mine = await createFolder(mallory, 'mine');
  });
  afterAll(() => t.close());

  it('refuses every call naming them', async () => {
    const f = file._id;
    const d = folder._id;
    const calls: [string, string, unknown?][] = [
      ['GET', `/file-service/info/${f}`],
      ['GET', `/file-service/download/${f}`],
      ['GET', `/file-service/list?parent=${d}`],
      ['GET', `/folder-service/list?parent=${d}`],
      ['GET', `/folder-service/info/${d}`],
      ['GET', `/folder-service/move-folder-list?parent=${d}`],
      ['PATCH', '/file-service/rename', { id: f, title: 'pwned' }],
      ['PATCH', '/file-service/move', { id: f, parentID: mine._id }],
      ['PATCH', '/file-service/move', { id: file._id, parentID: '/' }],
      ['PATCH', '/file-service/trash', { id: f }],
      ['PATCH', '/file-service/restore', { id: f }],
      ['PATCH', '/file-service/trash-multi', { items: [{ type: 'file', id: f }] }],
      ['PATCH', '/file-service/restore-multi', { items: [{ type: 'folder', id: d }] }],
      ['PATCH', '/file-service/move-multi', { items: [{ type: 'file', id: f }], parentID: '/' }],
      ['PATCH', '/file-service/move-multi', { items: [{ type: 'folder', id: mine._id }], parentID: d }],
      ['DELETE', '/file-service/remove', { id: f }],
      ['DELETE', '/file-service/remove-multi', { items: [{ type: 'file', id: f }] }],
      ['POST', '/folder-service/create', { name: 'x', parent: d }],
      ['PATCH', '/folder-service/rename', { id: d, title: 'pwned' }],
      ['PATCH', '/folder-service/move', { id: d, parentID: mine._id }],
      ['PATCH', '/folder-service/move', { id: mine._id, parentID: d }],
      ['PATCH', '/folder-service/trash', { id: d }],
      ['PATCH', '/folder-service/restore', { id: d }],
      ['DELETE', '/folder-service/remove', { id: d }],
    ];
    for (const [method, url, body] of calls) {
      const response = await mallory.request(method as 'GET', url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.body, `${method} ${url}`).not.toContain('secret');
    }
    const { body, contentType } = await multipartBody([
      { name: 'parent', value: d },
      { name: 'file', filename: 'x.txt', data: 'x' },
    ]);
    expect((await mallory.request('POST', '/file-service/upload', body, { 'content-type': contentType })).statusCode).toBe(404);

    const intact = (await alice.get(`/file-service/info/${f}`)).json<FileDto>();
    expect(intact.filename).toBe('secret.txt');
    expect(intact.metadata.parent).toBe(d);
    expect(intact.metadata.trashed).toBe(false);
    expect((await listFolders(alice, { parent: d })).length).toBe(0);
    expect((await listFiles(mallory, { search: 'secret' })).length).toBe(0);
  });

  it('answers 401 to every drive call when signed out', async () => {
    const stranger = new TestBrowser(t.app);
    for (const url of ['/file-service/list', '/folder-service/list', `/file-service/download/${file._id}`, '/file-service/quick-list']) {
      expect((await stranger.get(url)).statusCode, url).toBe(401);
    }
    expect((await stranger.patch('/file-service/trash', { id: file._id })).statusCode).toBe(401);
  });

  it('answers 400 to malformed bodies and changes nothing', async () => {
    const bad: [string, string, unknown][] = [
      ['PATCH', '/file-service/rename', { id: file._id }],
      ['PATCH', '/file-service/rename', { id: 42, title: 'x' }],
      ['PATCH', '/file-service/rename', { id: file._id, title: 'x'.repeat(1_000_000) }],
      ['PATCH', '/file-service/rename', { id: file._id, title: '\u0000\u0001' }],
      ['PATCH', '/file-service/move', { id: file._id }],
      ['PATCH', '/file-service/trash-multi', { items: [] }],
      ['PATCH', '/file-service/trash-multi', { items: [{ type: 'disk', id: file._id }] }],
      ['PATCH', '/file-service/trash-multi', 'not json'],
      ['POST', '/folder-service/create', { parent: '/' }],
      ['POST', '/folder-service/create', { name: ['a'], parent: '/' }],
      ['PATCH', '/folder-service/move', { id: 'x'.repeat(100), parentID: '/' }],
    ];
    for (const [method, url, body] of bad) {
      const response = await alice.request(
        method as 'PATCH',
        url,
        body,
        typeof body === 'string' ? { 'content-type': 'application/json' } : {},
      );
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(body).slice(0, 60)}`).toBe(400);
    }
    expect((await alice.get(`/file-service/info/${file._id}`)).json<FileDto>().filename).toBe('secret.txt');
    const noFile = await multipartBody([{ name: 'parent', value: '/' }]);
    expect((await alice.request('POST', '/file-service/upload', noFile.body, { 'content-type': noFile.contentType })).statusCode).toBe(400);
    expect((await alice.request('POST', '/file-service/upload', 'garbage', { 'content-type': 'multipart/form-data' })).statusCode).toBe(
      400,
    );
  });
});
