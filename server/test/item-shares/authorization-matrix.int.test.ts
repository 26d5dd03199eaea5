import type { FileDto, FolderDto, ItemShareDto } from '@nimbus/common';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { TUS, share, tusMeta } from './helpers.js';

type Role = 'owner' | 'editor' | 'viewer' | 'stranger' | 'admin';
const ROLES: Role[] = ['stranger', 'admin', 'viewer', 'editor', 'owner'];

/** What each role is answered: reads open to both recipients, writes to the editor, owner-only calls to the owner. */
type Kind = 'read' | 'write' | 'owner-only' | 'share-root';
const EXPECTED: Record<Kind, Record<Role, 'ok' | 403 | 404>> = {
  read: { owner: 'ok', editor: 'ok', viewer: 'ok', stranger: 404, admin: 404 },
  write: { owner: 'ok', editor: 'ok', viewer: 403, stranger: 404, admin: 404 },
  'owner-only': { owner: 'ok', editor: 404, viewer: 404, stranger: 404, admin: 404 },
  'share-root': { owner: 'ok', editor: 403, viewer: 403, stranger: 404, admin: 404 },
};

interface Case {
  name: string;
  kind: Kind;
  /** Makes fresh items for one call and sends it. */
  call: (as: TestBrowser) => Promise<LightMyRequestResponse>;
}

/**
 * Every route of files, folders, uploads, media, zip and item shares, called by the owner, an
 * editor, a viewer, a stranger and an administrator who is a stranger to the item.
 */
describe('item shares: the authorization matrix', () => {
  let t: TestApp;
  const as = {} as Record<Role, TestBrowser>;
  let extraEmail: string;
  let root: FolderDto;
  let image: FileDto;

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
    const emails = {} as Record<Role, string>;
    for (const role of ROLES) {
      as[role] = new TestBrowser(t.app);
      emails[role] = (await as[role].signUp()).email;
    }
    extraEmail = (await new TestBrowser(t.app).signUp()).email;
    await t.app.database.db.updateTable('account').set({ role: 'admin' }).where('email', '=', emails.admin).execute();
    root = await createFolder(as.owner, 'Shared root');
    image = await upload(
      as.owner,
      'pic.png',
      await sharp({ create: { width: 20, height: 20, channels: 3, background: '#f80' } })
        .png()
        .toBuffer(),
      root._id,
    );
    await t.app.background.drainJobs();
    image = (await as.owner.get(`/file-service/info/${image._id}`)).json<FileDto>();
    await share(as.owner, 'folder', root._id, emails.viewer, 'viewer');
    await share(as.owner, 'folder', root._id, emails.editor, 'editor');
  });
  afterAll(() => t.close());

  const freshFile = () => upload(as.owner, `f-${Math.random().toString(36).slice(2)}.txt`, 'data', root._id);
  const freshFolder = () => createFolder(as.owner, `d-${Math.random().toString(36).slice(2)}`, root._id);
  const trashedFile = async () => {
    const file = await freshFile();
    await as.owner.patch('/file-service/trash', { id: file._id });
    return file;
  };
  const trashedFolder = async () => {
    const folder = await freshFolder();
    await as.owner.patch('/folder-service/trash', { id: folder._id });
    return folder;
  };
  const multipart = async (browser: TestBrowser, url: string, parts: Parameters<typeof multipartBody>[0]) => {
    const { body, contentType } = await multipartBody(parts);
    return browser.request('POST', url, body, { 'content-type': contentType });
  };
  const ownShare = async () => {
    const file = await freshFile();
    return (
      await as.owner.post('/item-share-service/shares', { itemType: 'file', itemId: file._id, email: extraEmail, role: 'viewer' })
    ).json<ItemShareDto>();
  };

  const freshVideo = async () => {
    const file = await freshFile();
    // What the upload sniffing would have found in a real video; the bytes do not matter to streaming.
    await t.app.database.db.updateTable('file').set({ mediaKind: 'video' }).where('id', '=', file._id).execute();
    return file;
  };

  const cases: Case[] = [
    { name: 'GET stream-video', kind: 'read', call: async (b) => b.get(`/file-service/stream-video/${(await freshVideo())._id}`) },
    { name: 'GET file list of the folder', kind: 'read', call: (b) => b.get(`/file-service/list?parent=${root._id}`) },
    { name: 'GET folder list of the folder', kind: 'read', call: (b) => b.get(`/folder-service/list?parent=${root._id}`) },
    { name: 'GET folder info', kind: 'read', call: async (b) => b.get(`/folder-service/info/${(await freshFolder())._id}`) },
    { name: 'GET file info', kind: 'read', call: async (b) => b.get(`/file-service/info/${(await freshFile())._id}`) },
    { name: 'GET download', kind: 'read', call: async (b) => b.get(`/file-service/download/${(await freshFile())._id}`) },
    { name: 'GET thumbnail', kind: 'read', call: (b) => b.get(`/file-service/thumbnail/${image.metadata.thumbnailID}`) },
    { name: 'GET full-thumbnail', kind: 'read', call: (b) => b.get(`/file-service/full-thumbnail/${image._id}`) },
    { name: 'GET move-folder-list', kind: 'read', call: (b) => b.get(`/folder-service/move-folder-list?parent=${root._id}`) },
    {
      name: 'GET download-zip',
      kind: 'read',
      call: async (b) => b.get(`/folder-service/download-zip?fileIDs[]=${(await freshFile())._id}`),
    },
    {
      name: 'PATCH file rename',
      kind: 'write',
      call: async (b) => b.patch('/file-service/rename', { id: (await freshFile())._id, title: 'n.txt' }),
    },
    {
      name: 'PATCH folder rename',
      kind: 'write',
      call: async (b) => b.patch('/folder-service/rename', { id: (await freshFolder())._id, title: 'n' }),
    },
    {
      name: 'PATCH file move',
      kind: 'write',
      call: async (b) => b.patch('/file-service/move', { id: (await freshFile())._id, parentID: (await freshFolder())._id }),
    },
    {
      name: 'PATCH folder move',
      kind: 'write',
      call: async (b) => b.patch('/folder-service/move', { id: (await freshFolder())._id, parentID: (await freshFolder())._id }),
    },
    {
      name: 'PATCH move-multi',
      kind: 'write',
      call: async (b) =>
        b.patch('/file-service/move-multi', {
          items: [{ type: 'file', id: (await freshFile())._id }],
          parentID: (await freshFolder())._id,
        }),
    },
    { name: 'PATCH file trash', kind: 'write', call: async (b) => b.patch('/file-service/trash', { id: (await freshFile())._id }) },
    { name: 'PATCH folder trash', kind: 'write', call: async (b) => b.patch('/folder-service/trash', { id: (await freshFolder())._id }) },
    {
      name: 'PATCH trash-multi',
      kind: 'write',
      call: async (b) => b.patch('/file-service/trash-multi', { items: [{ type: 'folder', id: (await freshFolder())._id }] }),
    },
    { name: 'POST folder create', kind: 'write', call: (b) => b.post('/folder-service/create', { name: 'new', parent: root._id }) },
    {
      name: 'POST file upload',
      kind: 'write',
      call: (b) =>
        multipart(b, '/file-service/upload', [
          { name: 'parent', value: root._id },
          { name: 'file', filename: 'u.txt', data: 'u' },
        ]),
    },
    {
      name: 'POST folder upload',
      kind: 'write',
      call: (b) =>
        multipart(b, '/folder-service/upload', [
          { name: 'parent', value: root._id },
          { name: 'file-data', value: JSON.stringify({ path: 'dir/u.txt', index: 0 }) },
          { name: 'file', filename: 'u.txt', data: 'u' },
        ]),
    },
    {
      name: 'POST tus creation',
      kind: 'write',
      call: (b) =>
        b.request('POST', '/file-service/tus', undefined, { ...TUS, 'upload-length': '1', 'upload-metadata': tusMeta('t.txt', root._id) }),
    },
    {
      name: 'PATCH rename of the share root',
      kind: 'share-root',
      call: (b) => b.patch('/folder-service/rename', { id: root._id, title: 'Shared root' }),
    },
    {
      name: 'PATCH file restore',
      kind: 'owner-only',
      call: async (b) => b.patch('/file-service/restore', { id: (await trashedFile())._id }),
    },
    {
      name: 'PATCH folder restore',
      kind: 'owner-only',
      call: async (b) => b.patch('/folder-service/restore', { id: (await trashedFolder())._id }),
    },
    {
      name: 'DELETE file remove',
      kind: 'owner-only',
      call: async (b) => b.delete('/file-service/remove', { id: (await trashedFile())._id }),
    },
    {
      name: 'DELETE folder remove',
      kind: 'owner-only',
      call: async (b) => b.delete('/folder-service/remove', { id: (await trashedFolder())._id }),
    },
    { name: 'PATCH make-public', kind: 'owner-only', call: async (b) => b.patch(`/file-service/make-public/${(await freshFile())._id}`) },
    { name: 'PATCH make-one', kind: 'owner-only', call: async (b) => b.patch(`/file-service/make-one/${(await freshFile())._id}`) },
    {
      name: 'POST share link',
      kind: 'owner-only',
      call: async (b) => b.post('/share-service/links', { itemType: 'file', itemId: (await freshFile())._id, kind: 'view' }),
    },
    {
      name: 'GET shares of an item',
      kind: 'owner-only',
      call: (b) => b.get(`/item-share-service/shares?itemType=folder&itemId=${root._id}`),
    },
    {
      name: 'POST share',
      kind: 'owner-only',
      call: async (b) =>
        b.post('/item-share-service/shares', { itemType: 'file', itemId: (await freshFile())._id, email: extraEmail, role: 'viewer' }),
    },
    {
      name: 'PATCH share role',
      kind: 'owner-only',
      call: async (b) => b.patch(`/item-share-service/shares/${(await ownShare()).id}`, { role: 'editor' }),
    },
    { name: 'DELETE share', kind: 'owner-only', call: async (b) => b.delete(`/item-share-service/shares/${(await ownShare()).id}`) },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      for (const role of ROLES) {
        const answer = await c.call(as[role]);
        const expected = EXPECTED[c.kind][role];
        if (expected === 'ok') expect(answer.statusCode, `${role}: ${answer.body}`).toBeLessThan(300);
        else expect(answer.statusCode, `${role}: ${answer.body}`).toBe(expected);
      }
    });
  }
});
