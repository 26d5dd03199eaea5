import type { FolderDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { unzip } from './support.js';

describe('zip download', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let bob: TestBrowser;
  let photos: FolderDto;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    bob = new TestBrowser(t.app);
    await alice.signUp();
    await bob.signUp();

    // Photos/{a.txt ×2, A.TXT, 2024/{beach.jpg, Deep/{x.txt}}, Empty/, Trashed/{gone.txt}, gone.txt (trashed)}
    photos = await createFolder(alice, 'Photos');
    const year = await createFolder(alice, '2024', photos._id);
    const deep = await createFolder(alice, 'Deep', year._id);
    await createFolder(alice, 'Empty', photos._id);
    const trashedFolder = await createFolder(alice, 'Trashed', photos._id);
    await upload(alice, 'a.txt', 'first', photos._id);
    await upload(alice, 'a.txt', 'second', photos._id);
    await upload(alice, 'A.TXT', 'third', photos._id);
    await upload(alice, 'beach.jpg', 'sand', year._id);
    await upload(alice, 'x.txt', 'deep down', deep._id);
    await upload(alice, 'gone.txt', 'in trashed folder', trashedFolder._id);
    const gone = await upload(alice, 'gone.txt', 'trashed', photos._id);
    await upload(alice, 'empty.bin', '', photos._id);
    expect((await alice.patch('/folder-service/trash', { id: trashedFolder._id })).statusCode).toBe(200);
    expect((await alice.patch('/file-service/trash', { id: gone._id })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  async function download(browser: TestBrowser, query: string) {
    return browser.get(`/folder-service/download-zip?${query}`);
  }

  it('keeps the folder tree, leaves trashed items out and makes equal names unique', async () => {
    const response = await download(alice, `folderIDs[]=${photos._id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    // Known before the first byte, so a browser shows how much is left.
    expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
    expect(response.headers['content-disposition']).toContain("filename*=UTF-8''Photos.zip");
    const { files, directories } = await unzip(response.rawPayload);

    // Equal names (case-insensitively) take turns by id, so which one gets "(1)" may vary.
    expect([...files.keys()].map((p) => p.toLowerCase()).sort()).toEqual(
      [
        'photos/2024/deep/x.txt',
        'photos/2024/beach.jpg',
        'photos/a.txt',
        'photos/a (1).txt',
        'photos/a (2).txt',
        'photos/empty.bin',
      ].sort(),
    );
    expect(directories).toEqual(['Photos/Empty/']);
    expect(files.get('Photos/2024/Deep/x.txt')!.toString()).toBe('deep down');
    expect(files.get('Photos/2024/beach.jpg')!.toString()).toBe('sand');
    expect(files.get('Photos/empty.bin')!.length).toBe(0);
    const equalNames = [...files].filter(([p]) => /^Photos\/a( \(\d\))?\.txt$/i.test(p)).map(([, bytes]) => bytes.toString());
    expect(equalNames.sort()).toEqual(['first', 'second', 'third']);
  });

  it('zips several folders and files side by side, uniquely named at the top', async () => {
    const other = await createFolder(alice, 'Photos');
    await upload(alice, 'note.md', '# note', other._id);
    const loose = await upload(alice, 'loose.txt', 'loose');
    const sameName = await upload(alice, 'Photos', 'a file named like the folders');
    const query = [
      `folderIDs[]=${photos._id}`,
      `folderIDs[]=${other._id}`,
      `fileIDs[]=${loose._id}`,
      `fileIDs[]=${sameName._id}`,
      `fileIDs[]=${loose._id}`,
    ].join('&');
    const response = await download(alice, query);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain("filename*=UTF-8''download.zip");
    const { files } = await unzip(response.rawPayload);
    expect(files.get('Photos (1)/note.md')!.toString()).toBe('# note');
    expect(files.get('loose.txt')!.toString()).toBe('loose');
    expect(files.get('Photos (2)')!.toString()).toBe('a file named like the folders');
    expect(files.has('Photos/2024/beach.jpg')).toBe(true);
  });

  it('accepts the ids without brackets too, and HEAD', async () => {
    const loose = await upload(alice, 'plain.txt', 'plain');
    const response = await download(alice, `fileIDs=${loose._id}`);
    expect(response.statusCode).toBe(200);
    expect((await unzip(response.rawPayload)).files.get('plain.txt')!.toString()).toBe('plain');
    const head = await alice.request('HEAD', `/folder-service/download-zip?fileIDs=${loose._id}`);
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/zip');
    expect(head.rawPayload.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(response.rawPayload.length));
  });

  it("answers 404 before any byte when one id is another user's, trashed or unknown", async () => {
    const bobs = await upload(bob, 'bob.txt', 'bob');
    const bobsFolder = await createFolder(bob, 'Bob');
    const trashed = await upload(alice, 'trashed.txt', 'x');
    await alice.patch('/file-service/trash', { id: trashed._id });
    for (const query of [
      `folderIDs[]=${photos._id}&fileIDs[]=${bobs._id}`,
      `folderIDs[]=${bobsFolder._id}`,
      `fileIDs[]=${trashed._id}`,
      `folderIDs[]=unknown`,
    ]) {
      const response = await download(alice, query);
      expect(response.statusCode, query).toBe(404);
      expect(response.headers['content-type']).toContain('application/json');
    }
  });

  it('refuses an empty selection or malformed ids with 400, and a signed-out caller with 401', async () => {
    expect((await download(alice, '')).statusCode).toBe(400);
    expect((await download(alice, `fileIDs[]=${'x'.repeat(80)}`)).statusCode).toBe(400);
    expect((await new TestBrowser(t.app).get(`/folder-service/download-zip?folderIDs[]=${photos._id}`)).statusCode).toBe(401);
  });
});
