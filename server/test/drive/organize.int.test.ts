import type { FileDto, FolderDto } from '@nimbus/common';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, listFiles, listFolders, upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

async function storedObjects(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && !e.parentPath.includes('.tmp')).length;
}

describe('organizing: folders, moves, trash, restore, delete', () => {
  let t: TestApp;
  let alice: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(() => t.close());

  /** a/ (a.txt) → b/ (b.txt) → c/ (c.txt) */
  async function tree(prefix: string): Promise<{ a: FolderDto; b: FolderDto; c: FolderDto; files: FileDto[] }> {
    const a = await createFolder(alice, `${prefix}-a`);
    const b = await createFolder(alice, `${prefix}-b`, a._id);
    const c = await createFolder(alice, `${prefix}-c`, b._id);
    const files = [
      await upload(alice, 'a.txt', 'A', a._id),
      await upload(alice, 'b.txt', 'B', b._id),
      await upload(alice, 'c.txt', 'C', c._id),
    ];
    return { a, b, c, files };
  }

  it('creates, renames and lists folders with validation', async () => {
    const folder = await createFolder(alice, '  Projects  ');
    expect(folder.name).toBe('Projects');
    expect((await alice.post('/folder-service/create', { name: '   ', parent: '/' })).statusCode).toBe(400);
    expect((await alice.post('/folder-service/create', { name: 'x', parent: 'missing' })).statusCode).toBe(404);
    const renamed = await alice.patch('/folder-service/rename', { id: folder._id, title: 'Work' });
    expect(renamed.json<FolderDto>().name).toBe('Work');
    expect((await alice.get(`/folder-service/info/${folder._id}`)).json<FolderDto>().name).toBe('Work');
  });

  it('trashes a 3-level tree, lists only the top in trash, restores it whole', async () => {
    const { a, b, c, files } = await tree('t1');
    expect((await alice.patch('/folder-service/trash', { id: a._id })).statusCode).toBe(200);
    expect((await listFolders(alice)).map((f) => f._id)).not.toContain(a._id);
    const trashRoot = await listFolders(alice, { trashMode: 'true' });
    expect(trashRoot.map((f) => f._id)).toContain(a._id);
    expect(trashRoot.map((f) => f._id)).not.toContain(b._id);
    expect((await listFiles(alice, { trashMode: 'true' })).map((f) => f._id)).not.toContain(files[1]!._id);
    expect((await listFolders(alice, { parent: a._id, trashMode: 'true' })).map((f) => f._id)).toEqual([b._id]);
    expect((await listFiles(alice, { search: 'c.txt' })).length).toBe(0);

    await alice.patch('/folder-service/restore', { id: a._id });
    expect((await listFolders(alice, { parent: b._id })).map((f) => f._id)).toEqual([c._id]);
    expect((await listFiles(alice, { parent: c._id })).map((f) => f._id)).toEqual([files[2]!._id]);
    expect((await listFiles(alice, { trashMode: 'true' })).length).toBe(0);
  });

  it('restores an item to the root when its parent is trashed', async () => {
    const { a, files } = await tree('t2');
    await alice.patch('/file-service/trash', { id: files[0]!._id });
    await alice.patch('/folder-service/trash', { id: a._id });
    const restored = await alice.patch('/file-service/restore', { id: files[0]!._id });
    expect(restored.json<FileDto>().metadata.parent).toBe('/');
    expect(restored.json<FileDto>().metadata.trashed).toBe(false);
  });

  it('deletes a trashed tree and its stored bytes', async () => {
    const { a, b, c, files } = await tree('t3');
    const before = await storedObjects(path.join(t.dataDir, 'files'));
    await alice.patch('/folder-service/trash', { id: a._id });
    expect((await alice.delete('/folder-service/remove', { id: a._id })).statusCode).toBe(200);
    for (const id of [a._id, b._id, c._id]) expect((await alice.get(`/folder-service/info/${id}`)).statusCode).toBe(404);
    for (const f of files) expect((await alice.get(`/file-service/download/${f._id}`)).statusCode).toBe(404);
    await t.app.background.drainJobs();
    expect(await storedObjects(path.join(t.dataDir, 'files'))).toBe(before - 3);
  });

  it('refuses to move a folder into itself or a descendant', async () => {
    const { a, c } = await tree('t4');
    expect((await alice.patch('/folder-service/move', { id: a._id, parentID: c._id })).statusCode).toBe(400);
    expect((await alice.patch('/folder-service/move', { id: a._id, parentID: a._id })).statusCode).toBe(400);
    expect((await alice.patch('/file-service/move-multi', { items: [{ type: 'folder', id: a._id }], parentID: c._id })).statusCode).toBe(
      400,
    );
    expect((await alice.get(`/folder-service/info/${a._id}`)).json<FolderDto>().parent).toBe('/');
  });

  it('moves files and folders, singly and together', async () => {
    const { a, b, files } = await tree('t5');
    const target = await createFolder(alice, 'target');
    expect((await alice.patch('/file-service/move', { id: files[0]!._id, parentID: target._id })).json<FileDto>().metadata.parent).toBe(
      target._id,
    );
    const multi = await alice.patch('/file-service/move-multi', {
      items: [
        { type: 'folder', id: b._id },
        { type: 'file', id: files[0]!._id },
      ],
      parentID: '/',
    });
    expect(multi.statusCode).toBe(200);
    expect((await alice.get(`/folder-service/info/${b._id}`)).json<FolderDto>().parent).toBe('/');
    expect((await listFolders(alice, { parent: a._id })).length).toBe(0);
  });

  it('lists move targets without the moved folders and their subtrees', async () => {
    const { a, b } = await tree('t6');
    const other = await createFolder(alice, 't6-other');
    const list = await alice.get(`/folder-service/move-folder-list?parent=/&folderIDs[]=${a._id}`);
    const ids = list.json<FolderDto[]>().map((f) => f._id);
    expect(ids).toContain(other._id);
    expect(ids).not.toContain(a._id);
    const search = await alice.get(`/folder-service/move-folder-list?search=t6-&folderIDs[]=${a._id}`);
    expect(search.json<FolderDto[]>().map((f) => f._id)).toEqual([other._id]);
    expect(search.json<FolderDto[]>().map((f) => f._id)).not.toContain(b._id);
  });

  it('trashes, restores and deletes several items at once', async () => {
    const f1 = await upload(alice, 'm1.txt', '1');
    const folder = await createFolder(alice, 'multi');
    const items = [
      { type: 'file', id: f1._id },
      { type: 'folder', id: folder._id },
    ];
    expect((await alice.patch('/file-service/trash-multi', { items })).statusCode).toBe(200);
    expect((await alice.patch('/file-service/restore-multi', { items })).statusCode).toBe(200);
    expect((await alice.get(`/file-service/info/${f1._id}`)).json<FileDto>().metadata.trashed).toBe(false);
    expect((await alice.delete('/file-service/remove-multi', { items })).statusCode).toBe(200);
    expect((await alice.get(`/file-service/info/${f1._id}`)).statusCode).toBe(404);
  });

  it('searches names anywhere in the drive, case-insensitively, in trash mode too', async () => {
    const deep = await createFolder(alice, 'deep');
    const file = await upload(alice, 'Quarterly-REPORT.pdf', '%PDF-1.4', deep._id);
    expect((await listFiles(alice, { search: 'report' })).map((f) => f._id)).toEqual([file._id]);
    expect((await listFiles(alice, { search: 'ly-re' })).map((f) => f._id)).toEqual([file._id]);
    expect((await listFiles(alice, { search: 'QU' })).map((f) => f._id)).toContain(file._id);
    expect((await listFiles(alice, { search: '%' })).length).toBe(0);
    const suggested = await alice.get('/file-service/suggested-list?search=deep');
    expect(suggested.json<{ folderList: FolderDto[] }>().folderList.map((f) => f._id)).toEqual([deep._id]);
    await alice.patch('/file-service/trash', { id: file._id });
    expect((await listFiles(alice, { search: 'report' })).length).toBe(0);
    expect((await listFiles(alice, { search: 'report', trashMode: 'true' })).map((f) => f._id)).toEqual([file._id]);
  });

  it('keeps the 20 most recent active files in the quick list', async () => {
    for (let i = 0; i < 22; i++) await upload(alice, `q${i}.txt`, String(i));
    const quick = (await alice.get('/file-service/quick-list?limit=20')).json<FileDto[]>();
    expect(quick.length).toBe(20);
    expect(quick[0]!.filename).toBe('q21.txt');
  });

  it('purges trash older than the retention period', async () => {
    const now = { t: Date.now() };
    const clocked = await createTestApp({ trashRetentionDays: 30 }, { clock: { now: () => now.t } });
    try {
      const bob = new TestBrowser(clocked.app);
      await bob.signUp();
      const old = await upload(bob, 'old.txt', 'old');
      const folder = await createFolder(bob, 'old-folder');
      await upload(bob, 'inner.txt', 'inner', folder._id);
      await bob.patch('/file-service/trash', { id: old._id });
      await bob.patch('/folder-service/trash', { id: folder._id });
      now.t += 29 * 86_400_000;
      await bob.post('/user-service/get-token');
      const recent = await upload(bob, 'recent.txt', 'recent');
      await bob.patch('/file-service/trash', { id: recent._id });
      now.t += 2 * 86_400_000;
      await bob.post('/user-service/get-token');
      await clocked.app.background.schedule();
      await clocked.app.background.drainJobs();
      expect((await bob.get(`/file-service/info/${old._id}`)).statusCode).toBe(404);
      expect((await bob.get(`/folder-service/info/${folder._id}`)).statusCode).toBe(404);
      expect((await bob.get(`/file-service/info/${recent._id}`)).statusCode).toBe(200);
      expect(await storedObjects(path.join(clocked.dataDir, 'files'))).toBe(1);
    } finally {
      await clocked.close();
    }
  });
});
