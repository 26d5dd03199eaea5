import type { FileDto, FolderDto, ItemShareDto } from '@nimbus/common';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, listFiles, listFolders, upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { TUS, share, tusMeta } from './helpers.js';

const QUOTA = 20_000;

/**
 * What a recipient does with a shared folder: a viewer browses, previews, downloads and zips; an
 * editor also uploads, makes folders, renames, moves within and trashes, all in the owner's drive.
 */
describe('item shares: the recipient side', () => {
  let t: TestApp;
  let owner: TestBrowser;
  let viewer: TestBrowser;
  let editor: TestBrowser;
  let stranger: TestBrowser;
  let ownerId: string;
  let ownerEmail: string;
  let editorShare: ItemShareDto;
  let outside: FolderDto;
  let root: FolderDto;
  let sub: FolderDto;
  let deep: FolderDto;
  let photo: FileDto;
  let text: FileDto;

  beforeAll(async () => {
    t = await createTestApp({ storageQuotaBytes: QUOTA, search: { enabled: false, embeddings: null } });
    owner = new TestBrowser(t.app);
    viewer = new TestBrowser(t.app);
    editor = new TestBrowser(t.app);
    stranger = new TestBrowser(t.app);
    ({ id: ownerId, email: ownerEmail } = await owner.signUp());
    const viewerEmail = (await viewer.signUp()).email;
    const editorEmail = (await editor.signUp()).email;
    await stranger.signUp();
    outside = await createFolder(owner, 'Private');
    root = await createFolder(owner, 'Family', outside._id);
    sub = await createFolder(owner, 'Trips', root._id);
    deep = await createFolder(owner, '2024', sub._id);
    photo = await upload(
      owner,
      'beach.png',
      await sharp({ create: { width: 40, height: 30, channels: 3, background: '#08f' } })
        .png()
        .toBuffer(),
      deep._id,
    );
    text = await upload(owner, 'plan.txt', 'the plan', sub._id);
    await t.app.background.drainJobs();
    await share(owner, 'folder', root._id, viewerEmail, 'viewer');
    editorShare = await share(owner, 'folder', root._id, editorEmail, 'editor');
  });
  afterAll(() => t.close());

  const multipartUpload = async (browser: TestBrowser, name: string, data: Buffer | string, parent: string) => {
    const { body, contentType } = await multipartBody([
      { name: 'filename', value: name },
      { name: 'parent', value: parent },
      { name: 'file', filename: name, data },
    ]);
    return browser.request('POST', '/file-service/upload', body, { 'content-type': contentType });
  };

  it('browses two levels deep, each item marked shared, breadcrumbs stopping at the share root', async () => {
    const folders = await listFolders(viewer, { parent: root._id });
    expect(folders.map((f) => f.name)).toEqual(['Trips']);
    const shared = { role: 'viewer', owner: { id: ownerId, email: ownerEmail }, rootId: root._id, rootType: 'folder' };
    expect(folders[0]!.shared).toEqual(shared);
    expect((await listFolders(viewer, { parent: sub._id })).map((f) => f.name)).toEqual(['2024']);
    const files = await listFiles(viewer, { parent: deep._id });
    expect(files.map((f) => f.filename)).toEqual(['beach.png']);
    expect(files[0]!.shared).toEqual(shared);
    expect((await listFiles(viewer, { parent: sub._id })).map((f) => f.filename)).toEqual(['plan.txt']);

    const rootInfo = (await viewer.get(`/folder-service/info/${root._id}`)).json<FolderDto>();
    // The share root sits at the recipient's root: the owner's folder above it is never named.
    expect(rootInfo).toMatchObject({ _id: root._id, parent: '/', shared });
    const deepInfo = (await viewer.get(`/folder-service/info/${deep._id}`)).json<FolderDto>();
    expect(deepInfo).toMatchObject({ parent: sub._id, shared });
    expect((await viewer.get(`/folder-service/info/${outside._id}`)).statusCode).toBe(404);
    expect((await viewer.get(`/file-service/info/${text._id}`)).json<FileDto>()).toMatchObject({ filename: 'plan.txt', shared });
    // The owner's own answers are as before.
    expect((await owner.get(`/folder-service/info/${root._id}`)).json()).not.toHaveProperty('shared');
    expect((await owner.get(`/folder-service/info/${root._id}`)).json<FolderDto>().parent).toBe(outside._id);
  });

  it('downloads, previews, zips', async () => {
    // The owner's one-time link of the file is not the recipient's to spend.
    expect((await owner.patch(`/file-service/make-one/${text._id}`)).statusCode).toBe(200);
    expect((await viewer.get(`/file-service/info/${text._id}`)).json<FileDto>().metadata).not.toHaveProperty('link');
    expect((await owner.patch(`/file-service/remove-link/${text._id}`)).statusCode).toBe(200);
    const download = await viewer.get(`/file-service/download/${text._id}`);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('the plan');
    const ready = (await viewer.get(`/file-service/info/${photo._id}`)).json<FileDto>();
    expect(ready.metadata.hasThumbnail).toBe(true);
    expect((await viewer.get(`/file-service/thumbnail/${ready.metadata.thumbnailID}`)).statusCode).toBe(200);
    expect((await viewer.get(`/file-service/full-thumbnail/${photo._id}`)).statusCode).toBe(200);
    const zip = await viewer.get(`/folder-service/download-zip?folderIDs[]=${sub._id}&fileIDs[]=${text._id}`);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toContain('zip');
    // A stranger gets nothing of it.
    expect((await stranger.get(`/file-service/thumbnail/${ready.metadata.thumbnailID}`)).statusCode).toBe(404);
    expect((await stranger.get(`/folder-service/download-zip?folderIDs[]=${sub._id}`)).statusCode).toBe(404);
  });

  it('a viewer cannot change anything: 403 SHARE_READ_ONLY', async () => {
    const refused = [
      await multipartUpload(viewer, 'x.txt', 'x', sub._id),
      await viewer.post('/folder-service/create', { name: 'New', parent: sub._id }),
      await viewer.patch('/file-service/rename', { id: text._id, title: 'y.txt' }),
      await viewer.patch('/folder-service/rename', { id: deep._id, title: '2025' }),
      await viewer.patch('/file-service/move', { id: text._id, parentID: deep._id }),
      await viewer.patch('/folder-service/move', { id: deep._id, parentID: root._id }),
      await viewer.patch('/file-service/trash', { id: text._id }),
      await viewer.patch('/folder-service/trash', { id: deep._id }),
      await viewer.patch('/file-service/trash-multi', { items: [{ type: 'file', id: text._id }] }),
      await viewer.request('POST', '/file-service/tus', undefined, {
        ...TUS,
        'upload-length': '3',
        'upload-metadata': tusMeta('t.txt', sub._id),
      }),
    ];
    for (const answer of refused) {
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answer.json()).toMatchObject({ code: 'SHARE_READ_ONLY', error: 'You can only view this shared item' });
    }
    expect((await listFiles(owner, { parent: sub._id })).map((f) => f.filename)).toEqual(['plan.txt']);
  });

  it('an editor uploads (multipart, folder, tus) into the owner drive, makes folders, renames, moves within and trashes', async () => {
    const uploaded = await multipartUpload(editor, 'added.txt', 'added', sub._id);
    expect(uploaded.statusCode).toBe(201);
    const added = uploaded.json<FileDto>();
    expect(added).toMatchObject({ metadata: { owner: ownerId, parent: sub._id }, shared: { role: 'editor', rootId: root._id } });
    expect((await listFiles(owner, { parent: sub._id })).map((f) => f.filename)).toContain('added.txt');

    const folderUpload = await multipartBody([
      { name: 'parent', value: sub._id },
      { name: 'file-data', value: JSON.stringify({ name: 'a.txt', path: 'Album/a.txt', index: 0 }) },
      { name: 'file', filename: 'a.txt', data: 'a' },
    ]);
    const album = await editor.request('POST', '/folder-service/upload', folderUpload.body, { 'content-type': folderUpload.contentType });
    expect(album.statusCode, album.body).toBe(201);
    expect(album.json<{ folders: FolderDto[] }>().folders[0]).toMatchObject({ name: 'Album', owner: ownerId, parent: sub._id });

    const data = Buffer.from('resumable!');
    const created = await editor.request('POST', '/file-service/tus', undefined, {
      ...TUS,
      'upload-length': String(data.length),
      'upload-metadata': tusMeta('resumed.txt', deep._id),
    });
    expect(created.statusCode, created.body).toBe(201);
    const location = created.headers.location as string;
    const half = await editor.request('PATCH', location, data.subarray(0, 4), {
      ...TUS,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    });
    expect(half.statusCode, half.body).toBe(204);
    const head = await editor.request('HEAD', location, undefined, TUS);
    expect(head.statusCode).toBe(200);
    // A piece shorter than a stored chunk keeps nothing yet: the upload goes on from the offset told.
    const kept = Number(half.headers['upload-offset']);
    expect(head.headers['upload-offset']).toBe(String(kept));
    // Nobody else continues it: the viewer may not write there, a stranger does not see it.
    expect((await stranger.request('HEAD', location, undefined, TUS)).statusCode).toBe(404);
    const rest = await editor.request('PATCH', location, data.subarray(kept), {
      ...TUS,
      'upload-offset': String(kept),
      'content-type': 'application/offset+octet-stream',
    });
    expect(rest.statusCode, rest.body).toBe(204);
    expect((await listFiles(owner, { parent: deep._id })).map((f) => f.filename)).toContain('resumed.txt');

    const made = await editor.post('/folder-service/create', { name: 'Made by editor', parent: sub._id });
    expect(made.statusCode).toBe(201);
    const madeFolder = made.json<FolderDto>();
    expect(madeFolder.owner).toBe(ownerId);

    const renamed = await editor.patch('/file-service/rename', { id: added._id, title: 'renamed.txt' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<FileDto>().filename).toBe('renamed.txt');
    expect((await editor.patch('/folder-service/rename', { id: madeFolder._id, title: 'Renamed folder' })).statusCode).toBe(200);

    expect((await editor.patch('/file-service/move', { id: added._id, parentID: madeFolder._id })).statusCode).toBe(200);
    expect((await editor.patch('/folder-service/move', { id: madeFolder._id, parentID: deep._id })).statusCode).toBe(200);
    const multi = await editor.patch('/file-service/move-multi', { items: [{ type: 'file', id: added._id }], parentID: root._id });
    expect(multi.statusCode, multi.body).toBe(200);
    expect((await listFiles(owner, { parent: root._id })).map((f) => f.filename)).toContain('renamed.txt');

    const trashed = await editor.patch('/file-service/trash', { id: added._id });
    expect(trashed.statusCode).toBe(200);
    expect((await editor.patch('/folder-service/trash', { id: madeFolder._id })).statusCode).toBe(200);
    // It lands in the owner's trash; restoring and the trash listing stay the owner's.
    const ownerTrash = await listFiles(owner, { trashMode: 'true' });
    expect(ownerTrash.map((f) => f.filename)).toContain('renamed.txt');
    expect((await listFiles(editor, { trashMode: 'true' })).map((f) => f.filename)).not.toContain('renamed.txt');
    expect((await editor.patch('/file-service/restore', { id: added._id })).statusCode).toBe(404);
    expect((await editor.delete('/file-service/remove', { id: added._id })).statusCode).toBe(404);
    expect((await editor.patch(`/file-service/make-public/${text._id}`)).statusCode).toBe(404);
  });

  it('an editor cannot touch the share root, nor move anything across the edge of the share', async () => {
    for (const answer of [
      await editor.patch('/folder-service/rename', { id: root._id, title: 'Mine now' }),
      await editor.patch('/folder-service/move', { id: root._id, parentID: '/' }),
      await editor.patch('/folder-service/trash', { id: root._id }),
      await editor.patch('/file-service/trash-multi', { items: [{ type: 'folder', id: root._id }] }),
    ]) {
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answer.json()).toMatchObject({ code: 'SHARE_ROOT_LOCKED' });
    }
    const own = await createFolder(editor, 'My own');
    const mine = await upload(editor, 'mine.txt', 'mine');
    for (const answer of [
      await editor.patch('/file-service/move', { id: text._id, parentID: '/' }),
      await editor.patch('/file-service/move', { id: text._id, parentID: own._id }),
      await editor.patch('/folder-service/move', { id: deep._id, parentID: own._id }),
      await editor.patch('/file-service/move-multi', { items: [{ type: 'file', id: text._id }], parentID: '/' }),
      // Handing one's own bytes to another account is refused the same way.
      await editor.patch('/file-service/move', { id: mine._id, parentID: sub._id }),
      await editor.patch('/file-service/move-multi', { items: [{ type: 'file', id: mine._id }], parentID: sub._id }),
    ]) {
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answer.json()).toMatchObject({ code: 'SHARE_MOVE_REFUSED' });
    }
    // Moving out to the owner's folders above the share: not found, as any folder one cannot reach.
    expect((await editor.patch('/file-service/move', { id: text._id, parentID: outside._id })).statusCode).toBe(404);
  });

  it('a stranger gets 404 for every id of the share', async () => {
    for (const id of [root._id, sub._id, deep._id]) {
      expect((await stranger.get(`/folder-service/info/${id}`)).statusCode).toBe(404);
      expect((await stranger.get(`/folder-service/list?parent=${id}`)).statusCode).toBe(404);
      expect((await stranger.get(`/file-service/list?parent=${id}`)).statusCode).toBe(404);
      expect((await stranger.post('/folder-service/create', { name: 'x', parent: id })).statusCode).toBe(404);
      expect((await multipartUpload(stranger, 'x.txt', 'x', id)).statusCode).toBe(404);
    }
    for (const id of [text._id, photo._id]) {
      const info = await stranger.get(`/file-service/info/${id}`);
      expect(info.statusCode).toBe(404);
      expect(info.json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
      expect((await stranger.get(`/file-service/download/${id}`)).statusCode).toBe(404);
      expect((await stranger.patch('/file-service/rename', { id, title: 'x' })).statusCode).toBe(404);
      expect((await stranger.patch('/file-service/trash', { id })).statusCode).toBe(404);
    }
  });

  it("bytes an editor adds count against the owner's quota: an owner at quota makes the editor's upload 413", async () => {
    const used = (await listFiles(owner, { mediaMode: 'false' })).length;
    expect(used).toBeGreaterThanOrEqual(0);
    const filler = await multipartUpload(owner, 'filler.bin', Buffer.alloc(QUOTA - 3_000, 1), '/');
    expect(filler.statusCode, filler.body).toBe(201);
    const over = await multipartUpload(editor, 'big.bin', Buffer.alloc(4_000, 1), sub._id);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    const tusOver = await editor.request('POST', '/file-service/tus', undefined, {
      ...TUS,
      'upload-length': '4000',
      'upload-metadata': tusMeta('big.bin', sub._id),
    });
    expect(tusOver.statusCode).toBe(413);
    // The editor's own drive is not what counts: their own upload of the same size goes through.
    expect((await multipartUpload(editor, 'big.bin', Buffer.alloc(4_000, 1), '/')).statusCode).toBe(201);
    await owner.patch('/file-service/trash', { id: filler.json<FileDto>()._id });
    await owner.delete('/file-service/remove', { id: filler.json<FileDto>()._id });
  });

  it('lists are never stale after the owner changes the shared folder', async () => {
    const names = async () => (await listFiles(editor, { parent: deep._id })).map((f) => f.filename).sort();
    const before = await names();
    expect(await names()).toEqual(before);
    await upload(owner, 'fresh.txt', 'new', deep._id);
    expect(await names()).toEqual([...before, 'fresh.txt'].sort());
    const folderNames = async () => (await listFolders(editor, { parent: sub._id })).map((f) => f.name);
    const foldersBefore = await folderNames();
    await createFolder(owner, 'Fresh folder', sub._id);
    expect(await folderNames()).toEqual(expect.arrayContaining([...foldersBefore, 'Fresh folder']));
  });

  it('name search of a recipient finds shared files, marked shared, and the suggestions too', async () => {
    const found = await listFiles(viewer, { search: 'plan' });
    expect(found).toEqual([expect.objectContaining({ _id: text._id, shared: expect.objectContaining({ rootId: root._id }) })]);
    const folders = await listFolders(viewer, { search: 'trip' });
    expect(folders).toEqual([expect.objectContaining({ _id: sub._id, shared: expect.objectContaining({ role: 'viewer' }) })]);
    const suggested = (await viewer.get('/file-service/suggested-list?search=beach')).json<{ fileList: FileDto[] }>();
    expect(suggested.fileList.map((f) => f._id)).toEqual([photo._id]);
    // A stranger's search finds nothing of it.
    expect(await listFiles(stranger, { search: 'plan' })).toEqual([]);
    // A share made after a search was answered shows at once (the recipient's answers are not kept stale).
    const late = await upload(owner, 'late-plan.txt', 'x');
    expect((await listFiles(stranger, { search: 'late-plan' })).length).toBe(0);
    await share(owner, 'file', late._id, (await stranger.get('/user-service/user')).json<{ email: string }>().email, 'viewer');
    expect((await listFiles(stranger, { search: 'late-plan' })).map((f) => f._id)).toEqual([late._id]);
  });

  it('revoking stops access on the next request', async () => {
    expect((await editor.get(`/file-service/list?parent=${sub._id}`)).statusCode).toBe(200);
    expect((await owner.delete(`/item-share-service/shares/${editorShare.id}`)).statusCode).toBe(204);
    for (const answer of [
      await editor.get(`/file-service/list?parent=${sub._id}`),
      await editor.get(`/folder-service/info/${root._id}`),
      await editor.get(`/file-service/download/${text._id}`),
      await multipartUpload(editor, 'late.txt', 'x', sub._id),
    ]) {
      expect(answer.statusCode).toBe(404);
    }
  });
});
