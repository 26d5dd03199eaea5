import type { FileDto, FileVersionListDto, FolderDto, ItemShareDto, ShareLinkDto } from '@nimbus/common';
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
type Kind = 'read' | 'write' | 'owner-only' | 'share-root' | 'recipient' | 'across-edge';
const EXPECTED: Record<Kind, Record<Role, 'ok' | 403 | 404>> = {
  read: { owner: 'ok', editor: 'ok', viewer: 'ok', stranger: 404, admin: 404 },
  write: { owner: 'ok', editor: 'ok', viewer: 403, stranger: 404, admin: 404 },
  'owner-only': { owner: 'ok', editor: 404, viewer: 404, stranger: 404, admin: 404 },
  'share-root': { owner: 'ok', editor: 403, viewer: 403, stranger: 404, admin: 404 },
  // The share is the viewer's: only its recipient leaves it, and to anyone else its id is unknown.
  recipient: { owner: 404, editor: 404, viewer: 'ok', stranger: 404, admin: 404 },
  // The caller's own item with one of the folder's: an editor is refused too (SHARE_MOVE_REFUSED).
  'across-edge': { owner: 'ok', editor: 403, viewer: 403, stranger: 404, admin: 404 },
};

interface Case {
  name: string;
  /** The registered route it calls, `METHOD /pattern`, as `app.apiRoutes` names it. */
  route: string;
  kind: Kind;
  /** Makes fresh items for one call and sends it. */
  call: (as: TestBrowser) => Promise<LightMyRequestResponse>;
}

/**
 * A call that lists items: only `seenBy` find the item in the answer; anyone else gets a list
 * without it, or the 404 of a folder that is not theirs.
 */
interface Listing {
  name: string;
  route: string;
  seenBy: Role[];
  /** Makes a fresh item, then asks for the list; the answer must name `target` (an id or a name). */
  call: (as: TestBrowser) => Promise<{ answer: LightMyRequestResponse; target: string }>;
}

/**
 * Routes that name no item of anyone's drive, so there is nothing to share or to leak by id. Each
 * answers for the caller's own account, the server, or a link's token.
 */
const NAMES_NO_ITEM = [
  // The account itself: sign-up and sign-in, its settings, sessions and app passwords.
  'POST /user-service/create',
  'POST /user-service/login',
  'POST /user-service/logout',
  'POST /user-service/logout-all',
  'POST /user-service/get-token',
  'GET /user-service/user',
  'GET /user-service/user-detailed',
  'GET /user-service/signup-mode',
  'PATCH /user-service/change-password',
  'PATCH /user-service/resend-verify-email',
  'PATCH /user-service/verify-email',
  'PATCH /user-service/send-password-reset',
  'PATCH /user-service/reset-password',
  'GET /user-service/app-passwords',
  'POST /user-service/app-passwords',
  'DELETE /user-service/app-passwords/:id',
  // Sign-in security: the second step, two-factor, passkeys, sessions (ids of the account's own
  // credentials and sessions; another account's answer 404 in test/two-factor, test/passkeys, test/devices).
  'POST /user-service/login/second-factor',
  'GET /user-service/sign-in-options',
  'GET /two-factor-service/status',
  'POST /two-factor-service/setup',
  'POST /two-factor-service/enable',
  'POST /two-factor-service/recovery-codes',
  'POST /two-factor-service/disable',
  'POST /two-factor-service/setup-with-ticket',
  'POST /two-factor-service/enable-with-ticket',
  'POST /passkey-service/registration/options',
  'POST /passkey-service/registration/verify',
  'GET /passkey-service/passkeys',
  'PATCH /passkey-service/passkeys/:id',
  'DELETE /passkey-service/passkeys/:id',
  'POST /passkey-service/sign-in/options',
  'POST /passkey-service/sign-in/verify',
  'POST /passkey-service/second-factor/options',
  'POST /passkey-service/second-factor/verify',
  'GET /user-service/sessions',
  'DELETE /user-service/sessions/:id',
  // The account's own activity and storage use.
  'GET /user-service/activity',
  'GET /user-service/storage',
  // The video stream cookie: a credential of the caller, checked again by stream-video's own case.
  'GET /file-service/download/access-token-stream-video',
  'DELETE /file-service/remove-stream-video-token',
  // tus's capability answers (CORS preflight and protocol discovery).
  'OPTIONS /file-service/tus',
  'OPTIONS /file-service/tus/:id',
  // A query, not an id: its per-role answers are in semantic-search.int.test.ts (the matrix runs without search).
  'POST /file-service/semantic-search',
  // The server: health, metrics and the API reference.
  'GET /health',
  'GET /health/details',
  'GET /metrics',
  'GET /api/openapi.json',
  // Link visitors, signed out: the token is the credential (test/sharing/ covers them).
  'GET /file-service/public/info/:id/:token',
  'GET /file-service/public/download/:id/:token',
];

/** Route families walked by role in their own tests: a route under one of these prefixes is theirs. */
const ELSEWHERE = [
  // test/admin/admin-roles.int.test.ts walks every route under these by role, driven by the route list.
  '/admin-service/',
  '/invitation-service/',
  // WebDAV: test/dav/shared-with-me.int.test.ts, every method for an editor, a viewer and a stranger.
  '/dav',
  // Visitors of share links: the token is the credential (test/sharing/share-links.int.test.ts).
  '/share-service/public/',
  // The reference page's own files.
  '/api/docs',
  // People: the caller's own data only, never reached through a share; every id of another
  // account answers 404 in test/people/people-api.int.test.ts.
  '/people-service/',
];

/**
 * Every route of files, folders, uploads, media, zip and item shares, called by the owner, an
 * editor, a viewer, a stranger and an administrator who is a stranger to the item.
 */
describe('item shares: the authorization matrix', () => {
  let t: TestApp;
  const as = {} as Record<Role, TestBrowser>;
  let extraEmail: string;
  const emails = {} as Record<Role, string>;
  let root: FolderDto;
  let image: FileDto;

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
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
  /** A file in the caller's own drive, at its top. */
  const ownFile = (b: TestBrowser) => upload(b, `own-${Math.random().toString(36).slice(2)}.txt`, 'own');
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

  const viewerShare = async () => (await share(as.owner, 'file', (await freshFile())._id, emails.viewer, 'viewer')).id;
  const fileLink = async () => {
    const made = await as.owner.post('/share-service/links', { itemType: 'file', itemId: (await freshFile())._id, kind: 'view' });
    return made.json<ShareLinkDto>();
  };
  const publicFile = async () => {
    const file = await freshFile();
    await as.owner.patch(`/file-service/make-public/${file._id}`);
    return file;
  };
  /** A resumable upload the owner started into the shared folder: its id is the owner's. */
  const ownTusUpload = async () => {
    const created = await as.owner.request('POST', '/file-service/tus', undefined, {
      ...TUS,
      'upload-length': '2',
      'upload-metadata': tusMeta(`t-${Math.random().toString(36).slice(2)}.txt`, root._id),
    });
    return created.headers.location as string;
  };
  /** A file a visitor sent into the shared folder through the owner's drop link. */
  const droppedFile = async () => {
    const link = (await as.owner.post('/share-service/links', { itemType: 'folder', itemId: root._id, kind: 'drop' })).json<ShareLinkDto>();
    const name = `drop-${Math.random().toString(36).slice(2)}.txt`;
    const { body, contentType } = await multipartBody([{ name: 'file', filename: name, data: 'dropped' }]);
    await new TestBrowser(t.app).request('POST', `/share-service/public/${link.token}/upload`, body, { 'content-type': contentType });
    const files = (await as.owner.get(`/file-service/list?parent=${root._id}&search=${name}`)).json<FileDto[]>();
    return files.find((f) => f.filename === name)!;
  };

  /** A file of the folder whose content was replaced once: it has one version. */
  const versionedFile = async () => {
    const file = await freshFile();
    const { body, contentType } = await multipartBody([{ name: 'file', filename: 'v.txt', data: 'newer' }]);
    await as.owner.request('POST', `/file-service/upload-version/${file._id}`, body, { 'content-type': contentType });
    const versionId = (await as.owner.get(`/file-service/versions/${file._id}`)).json<FileVersionListDto>().versions[0]!.id;
    return { id: file._id, versionId };
  };
  const trashedVersionedFile = async () => {
    const file = await versionedFile();
    await as.owner.patch('/file-service/trash', { id: file.id });
    return file;
  };

  const freshVideo = async () => {
    const file = await freshFile();
    // What the upload sniffing would have found in a real video; the bytes do not matter to streaming.
    await t.app.database.db.updateTable('file').set({ mediaKind: 'video' }).where('id', '=', file._id).execute();
    return file;
  };

  const cases: Case[] = [
    {
      name: 'GET stream-video',
      route: 'GET /file-service/stream-video/:id',
      kind: 'read',
      call: async (b) => b.get(`/file-service/stream-video/${(await freshVideo())._id}`),
    },
    {
      name: 'GET motion',
      route: 'GET /file-service/motion/:id',
      kind: 'read',
      call: async (b) => {
        const file = await freshFile();
        // A motion photo's clip row naming the file's own blob: the bytes do not matter to streaming.
        const row = await t.app.database.db
          .selectFrom('file')
          .select(['ownerId', 'storageKey', 'wrappedKey', 'size', 'sha256'])
          .where('id', '=', file._id)
          .executeTakeFirstOrThrow();
        await t.app.database.db
          .insertInto('fileMotion')
          .values({
            fileId: file._id,
            ownerId: row.ownerId,
            status: 'ready',
            error: null,
            contentId: null,
            clipId: row.storageKey,
            clipWrappedKey: row.wrappedKey,
            clipSize: row.size,
            clipSha256: row.sha256,
            processedAt: Date.now(),
          })
          .execute();
        return b.get(`/file-service/motion/${file._id}`);
      },
    },
    {
      name: 'GET video-info',
      route: 'GET /file-service/video-info/:id',
      kind: 'read',
      call: async (b) => b.get(`/file-service/video-info/${(await freshVideo())._id}`),
    },
    {
      name: 'GET file list of the folder',
      route: 'GET /file-service/list',
      kind: 'read',
      call: (b) => b.get(`/file-service/list?parent=${root._id}`),
    },
    {
      name: 'GET folder list of the folder',
      route: 'GET /folder-service/list',
      kind: 'read',
      call: (b) => b.get(`/folder-service/list?parent=${root._id}`),
    },
    {
      name: 'GET folder info',
      route: 'GET /folder-service/info/:id',
      kind: 'read',
      call: async (b) => b.get(`/folder-service/info/${(await freshFolder())._id}`),
    },
    {
      name: 'GET file info',
      route: 'GET /file-service/info/:id',
      kind: 'read',
      call: async (b) => b.get(`/file-service/info/${(await freshFile())._id}`),
    },
    {
      name: 'GET download',
      route: 'GET /file-service/download/:id',
      kind: 'read',
      call: async (b) => b.get(`/file-service/download/${(await freshFile())._id}`),
    },
    {
      name: 'GET thumbnail',
      route: 'GET /file-service/thumbnail/:thumbnailID',
      kind: 'read',
      call: (b) => b.get(`/file-service/thumbnail/${image.metadata.thumbnailID}`),
    },
    {
      name: 'GET full-thumbnail',
      route: 'GET /file-service/full-thumbnail/:id',
      kind: 'read',
      call: (b) => b.get(`/file-service/full-thumbnail/${image._id}`),
    },
    {
      name: 'GET audio-info',
      route: 'GET /file-service/audio-info/:id',
      kind: 'read',
      call: async (b) => {
        const file = await freshFile();
        await t.app.database.db.updateTable('file').set({ contentType: 'audio/mpeg' }).where('id', '=', file._id).execute();
        return b.get(`/file-service/audio-info/${file._id}`);
      },
    },
    {
      name: 'GET move-folder-list',
      route: 'GET /folder-service/move-folder-list',
      kind: 'read',
      call: (b) => b.get(`/folder-service/move-folder-list?parent=${root._id}`),
    },
    {
      name: 'GET download-zip',
      route: 'GET /folder-service/download-zip',
      kind: 'read',
      call: async (b) => b.get(`/folder-service/download-zip?fileIDs[]=${(await freshFile())._id}`),
    },
    {
      name: 'PATCH file rename',
      route: 'PATCH /file-service/rename',
      kind: 'write',
      call: async (b) => b.patch('/file-service/rename', { id: (await freshFile())._id, title: 'n.txt' }),
    },
    {
      name: 'PATCH folder rename',
      route: 'PATCH /folder-service/rename',
      kind: 'write',
      call: async (b) => b.patch('/folder-service/rename', { id: (await freshFolder())._id, title: 'n' }),
    },
    {
      name: 'PATCH file move',
      route: 'PATCH /file-service/move',
      kind: 'write',
      call: async (b) => b.patch('/file-service/move', { id: (await freshFile())._id, parentID: (await freshFolder())._id }),
    },
    {
      name: 'PATCH folder move',
      route: 'PATCH /folder-service/move',
      kind: 'write',
      call: async (b) => b.patch('/folder-service/move', { id: (await freshFolder())._id, parentID: (await freshFolder())._id }),
    },
    {
      name: 'PATCH move-multi',
      route: 'PATCH /file-service/move-multi',
      kind: 'write',
      call: async (b) =>
        b.patch('/file-service/move-multi', {
          items: [{ type: 'file', id: (await freshFile())._id }],
          parentID: (await freshFolder())._id,
        }),
    },
    {
      name: 'PATCH file trash',
      route: 'PATCH /file-service/trash',
      kind: 'write',
      call: async (b) => b.patch('/file-service/trash', { id: (await freshFile())._id }),
    },
    {
      name: 'PATCH folder trash',
      route: 'PATCH /folder-service/trash',
      kind: 'write',
      call: async (b) => b.patch('/folder-service/trash', { id: (await freshFolder())._id }),
    },
    {
      name: 'PATCH trash-multi',
      route: 'PATCH /file-service/trash-multi',
      kind: 'write',
      call: async (b) => b.patch('/file-service/trash-multi', { items: [{ type: 'folder', id: (await freshFolder())._id }] }),
    },
    {
      name: 'POST folder create',
      route: 'POST /folder-service/create',
      kind: 'write',
      call: (b) => b.post('/folder-service/create', { name: 'new', parent: root._id }),
    },
    {
      name: 'POST file upload',
      route: 'POST /file-service/upload',
      kind: 'write',
      call: (b) =>
        multipart(b, '/file-service/upload', [
          { name: 'parent', value: root._id },
          { name: 'file', filename: 'u.txt', data: 'u' },
        ]),
    },
    {
      name: 'POST folder upload',
      route: 'POST /folder-service/upload',
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
      route: 'POST /file-service/tus',
      kind: 'write',
      call: (b) =>
        b.request('POST', '/file-service/tus', undefined, { ...TUS, 'upload-length': '1', 'upload-metadata': tusMeta('t.txt', root._id) }),
    },
    {
      name: 'POST tus creation that replaces a file of the folder',
      route: 'POST /file-service/tus',
      kind: 'write',
      call: async (b) =>
        b.request('POST', '/file-service/tus', undefined, {
          ...TUS,
          'upload-length': '1',
          'upload-metadata': `filename ${Buffer.from('r.txt').toString('base64')},replaces ${Buffer.from((await freshFile())._id).toString('base64')}`,
        }),
    },
    {
      name: 'GET download-zip of the shared folder',
      route: 'GET /folder-service/download-zip',
      kind: 'read',
      call: (b) => b.get(`/folder-service/download-zip?folderIDs[]=${root._id}`),
    },
    {
      name: "PATCH move of the caller's own file into the folder",
      route: 'PATCH /file-service/move',
      kind: 'across-edge',
      call: async (b) => b.patch('/file-service/move', { id: (await ownFile(b))._id, parentID: root._id }),
    },
    {
      name: "PATCH move-multi of the caller's own file into the folder",
      route: 'PATCH /file-service/move-multi',
      kind: 'across-edge',
      call: async (b) => b.patch('/file-service/move-multi', { items: [{ type: 'file', id: (await ownFile(b))._id }], parentID: root._id }),
    },
    {
      name: "GET download-zip of the caller's own file with one of the folder's",
      route: 'GET /folder-service/download-zip',
      kind: 'across-edge',
      call: async (b) => b.get(`/folder-service/download-zip?fileIDs[]=${(await ownFile(b))._id}&fileIDs[]=${(await freshFile())._id}`),
    },
    // The trash is the owner's: what an editor trashed is out of every recipient's reach.
    {
      name: 'GET file info of a trashed file',
      route: 'GET /file-service/info/:id',
      kind: 'owner-only',
      call: async (b) => b.get(`/file-service/info/${(await trashedFile())._id}`),
    },
    {
      name: 'GET folder info of a trashed folder',
      route: 'GET /folder-service/info/:id',
      kind: 'owner-only',
      call: async (b) => b.get(`/folder-service/info/${(await trashedFolder())._id}`),
    },
    {
      name: 'GET download of a trashed file',
      route: 'GET /file-service/download/:id',
      kind: 'owner-only',
      call: async (b) => b.get(`/file-service/download/${(await trashedFile())._id}`),
    },
    {
      name: 'PATCH rename of the share root',
      route: 'PATCH /folder-service/rename',
      kind: 'share-root',
      call: (b) => b.patch('/folder-service/rename', { id: root._id, title: 'Shared root' }),
    },
    {
      name: 'PATCH file restore',
      route: 'PATCH /file-service/restore',
      kind: 'owner-only',
      call: async (b) => b.patch('/file-service/restore', { id: (await trashedFile())._id }),
    },
    {
      name: 'PATCH folder restore',
      route: 'PATCH /folder-service/restore',
      kind: 'owner-only',
      call: async (b) => b.patch('/folder-service/restore', { id: (await trashedFolder())._id }),
    },
    {
      name: 'POST restore-as-of of a folder in the share',
      route: 'POST /folder-service/restore-as-of',
      kind: 'owner-only',
      call: async (b) => b.post('/folder-service/restore-as-of', { id: (await freshFolder())._id, at: new Date().toISOString() }),
    },
    {
      name: 'DELETE file remove',
      route: 'DELETE /file-service/remove',
      kind: 'owner-only',
      call: async (b) => b.delete('/file-service/remove', { id: (await trashedFile())._id }),
    },
    {
      name: 'DELETE folder remove',
      route: 'DELETE /folder-service/remove',
      kind: 'owner-only',
      call: async (b) => b.delete('/folder-service/remove', { id: (await trashedFolder())._id }),
    },
    {
      name: 'PATCH make-public',
      route: 'PATCH /file-service/make-public/:id',
      kind: 'owner-only',
      call: async (b) => b.patch(`/file-service/make-public/${(await freshFile())._id}`),
    },
    {
      name: 'PATCH make-one',
      route: 'PATCH /file-service/make-one/:id',
      kind: 'owner-only',
      call: async (b) => b.patch(`/file-service/make-one/${(await freshFile())._id}`),
    },
    {
      name: 'POST share link',
      route: 'POST /share-service/links',
      kind: 'owner-only',
      call: async (b) => b.post('/share-service/links', { itemType: 'file', itemId: (await freshFile())._id, kind: 'view' }),
    },
    {
      name: 'GET shares of an item',
      route: 'GET /item-share-service/shares',
      kind: 'owner-only',
      call: (b) => b.get(`/item-share-service/shares?itemType=folder&itemId=${root._id}`),
    },
    {
      name: 'POST share',
      route: 'POST /item-share-service/shares',
      kind: 'owner-only',
      call: async (b) =>
        b.post('/item-share-service/shares', { itemType: 'file', itemId: (await freshFile())._id, email: extraEmail, role: 'viewer' }),
    },
    {
      name: 'PATCH share role',
      route: 'PATCH /item-share-service/shares/:id',
      kind: 'owner-only',
      call: async (b) => b.patch(`/item-share-service/shares/${(await ownShare()).id}`, { role: 'editor' }),
    },
    {
      name: 'DELETE share',
      route: 'DELETE /item-share-service/shares/:id',
      kind: 'owner-only',
      call: async (b) => b.delete(`/item-share-service/shares/${(await ownShare()).id}`),
    },
    {
      name: 'PATCH restore-multi',
      route: 'PATCH /file-service/restore-multi',
      kind: 'owner-only',
      call: async (b) => b.patch('/file-service/restore-multi', { items: [{ type: 'file', id: (await trashedFile())._id }] }),
    },
    {
      name: 'DELETE remove-multi',
      route: 'DELETE /file-service/remove-multi',
      kind: 'owner-only',
      call: async (b) => b.delete('/file-service/remove-multi', { items: [{ type: 'folder', id: (await trashedFolder())._id }] }),
    },
    {
      name: 'PATCH remove-link',
      route: 'PATCH /file-service/remove-link/:id',
      kind: 'owner-only',
      call: async (b) => b.patch(`/file-service/remove-link/${(await publicFile())._id}`),
    },
    {
      name: 'PATCH share link options',
      route: 'PATCH /share-service/links/:id',
      kind: 'owner-only',
      call: async (b) => b.patch(`/share-service/links/${(await fileLink()).id}`, { allowDownload: false }),
    },
    {
      name: 'DELETE share link',
      route: 'DELETE /share-service/links/:id',
      kind: 'owner-only',
      call: async (b) => b.delete(`/share-service/links/${(await fileLink()).id}`),
    },
    {
      name: 'GET where a dropped file came from',
      route: 'GET /share-service/drops/:id',
      kind: 'owner-only',
      call: async (b) => b.get(`/share-service/drops/${(await droppedFile())._id}`),
    },
    {
      name: 'PATCH tus upload the owner started in the folder',
      route: 'PATCH /file-service/tus/:id',
      kind: 'write',
      call: async (b) =>
        b.request('PATCH', await ownTusUpload(), 'ab', {
          ...TUS,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        }),
    },
    {
      name: 'HEAD tus upload the owner started in the folder',
      route: 'HEAD /file-service/tus/:id',
      // Asking for the offset is the first step of continuing an upload: a write, refused to a viewer.
      kind: 'write',
      call: async (b) => b.request('HEAD', await ownTusUpload(), undefined, TUS),
    },
    {
      name: 'DELETE tus upload the owner started in the folder',
      route: 'DELETE /file-service/tus/:id',
      kind: 'write',
      call: async (b) => b.request('DELETE', await ownTusUpload(), undefined, TUS),
    },
    {
      name: 'DELETE leave a share',
      route: 'DELETE /item-share-service/shared-with-me/:id',
      kind: 'recipient',
      call: async (b) => b.delete(`/item-share-service/shared-with-me/${await viewerShare()}`),
    },
    {
      name: 'GET versions of a file',
      route: 'GET /file-service/versions/:id',
      kind: 'read',
      call: async (b) => b.get(`/file-service/versions/${(await versionedFile()).id}`),
    },
    {
      name: 'GET download of a version',
      route: 'GET /file-service/versions/:id/:versionId/download',
      kind: 'read',
      call: async (b) => {
        const file = await versionedFile();
        return b.get(`/file-service/versions/${file.id}/${file.versionId}/download`);
      },
    },
    {
      name: 'POST restore of a version',
      route: 'POST /file-service/versions/:id/:versionId/restore',
      kind: 'write',
      call: async (b) => {
        const file = await versionedFile();
        return b.post(`/file-service/versions/${file.id}/${file.versionId}/restore`);
      },
    },
    {
      name: 'DELETE a version',
      route: 'DELETE /file-service/versions/:id/:versionId',
      kind: 'owner-only',
      call: async (b) => {
        const file = await versionedFile();
        return b.delete(`/file-service/versions/${file.id}/${file.versionId}`);
      },
    },
    {
      name: 'POST upload-version',
      route: 'POST /file-service/upload-version/:id',
      kind: 'write',
      call: async (b) =>
        multipart(b, `/file-service/upload-version/${(await freshFile())._id}`, [{ name: 'file', filename: 'n.txt', data: 'next' }]),
    },
    // A trashed file's versions are the owner's, as the file is.
    {
      name: 'GET versions of a trashed file',
      route: 'GET /file-service/versions/:id',
      kind: 'owner-only',
      call: async (b) => b.get(`/file-service/versions/${(await trashedVersionedFile()).id}`),
    },
    {
      name: 'GET download of a version of a trashed file',
      route: 'GET /file-service/versions/:id/:versionId/download',
      kind: 'owner-only',
      call: async (b) => {
        const file = await trashedVersionedFile();
        return b.get(`/file-service/versions/${file.id}/${file.versionId}/download`);
      },
    },
  ];

  const listings: Listing[] = [
    {
      name: 'GET quick-list: the own recent files only',
      route: 'GET /file-service/quick-list',
      seenBy: ['owner'],
      call: async (b) => ({ target: (await freshFile())._id, answer: await b.get('/file-service/quick-list') }),
    },
    {
      name: 'GET suggested-list: shared items to their recipients',
      route: 'GET /file-service/suggested-list',
      seenBy: ['owner', 'editor', 'viewer'],
      call: async (b) => {
        const file = await freshFile();
        return { target: file._id, answer: await b.get(`/file-service/suggested-list?search=${file.filename}`) };
      },
    },
    {
      name: "GET share links of an item: the owner's only",
      route: 'GET /share-service/links',
      seenBy: ['owner'],
      call: async (b) => {
        const link = await fileLink();
        return { target: link.id, answer: await b.get(`/share-service/links?itemId=${link.itemId}`) };
      },
    },
    {
      name: "GET file-links: the owner's public files only",
      route: 'GET /share-service/file-links',
      seenBy: ['owner'],
      call: async (b) => ({ target: (await publicFile())._id, answer: await b.get('/share-service/file-links') }),
    },
    {
      name: "GET file list of the folder's trash: the owner's",
      route: 'GET /file-service/list',
      seenBy: ['owner'],
      call: async (b) => ({
        target: (await trashedFile())._id,
        answer: await b.get(`/file-service/list?parent=${root._id}&trashMode=true`),
      }),
    },
    {
      name: 'GET file list of the trash: the own trash only',
      route: 'GET /file-service/list',
      seenBy: ['owner'],
      call: async (b) => ({ target: (await trashedFile())._id, answer: await b.get(`/file-service/list?trashMode=true`) }),
    },
    {
      name: "GET folder list of the folder's trash: the owner's",
      route: 'GET /folder-service/list',
      seenBy: ['owner'],
      call: async (b) => ({
        target: (await trashedFolder())._id,
        answer: await b.get(`/folder-service/list?parent=${root._id}&trashMode=true`),
      }),
    },
    {
      name: 'GET suggested-list in the trash: the own trash only',
      route: 'GET /file-service/suggested-list',
      seenBy: ['owner'],
      call: async (b) => {
        const f = await trashedFile();
        return { target: f._id, answer: await b.get(`/file-service/suggested-list?search=${f.filename}&trashMode=true`) };
      },
    },
    {
      name: 'GET file list by name: shared files to their recipients',
      route: 'GET /file-service/list',
      seenBy: ['owner', 'editor', 'viewer'],
      call: async (b) => {
        const f = await freshFile();
        return { target: f._id, answer: await b.get(`/file-service/list?search=${f.filename}`) };
      },
    },
    {
      name: 'GET file list of media: the own photos and videos only',
      route: 'GET /file-service/list',
      seenBy: ['owner'],
      call: async (b) => ({ target: image._id, answer: await b.get(`/file-service/list?mediaMode=true`) }),
    },
    {
      name: 'GET export: the own drive only',
      route: 'GET /user-service/export',
      seenBy: ['owner'],
      call: async (b) => {
        const f = await freshFile();
        return { target: f.filename, answer: await b.get('/user-service/export') };
      },
    },
    {
      name: 'GET shared-with-me: the recipients only',
      route: 'GET /item-share-service/shared-with-me',
      seenBy: ['editor', 'viewer'],
      call: async (b) => ({ target: root._id, answer: await b.get('/item-share-service/shared-with-me') }),
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      for (const role of ROLES) {
        const answer = await c.call(as[role]);
        const expected = EXPECTED[c.kind][role];
        if (expected === 'ok') expect(answer.statusCode, `${role}: ${answer.body}`).toBeLessThan(300);
        else {
          expect(answer.statusCode, `${role}: ${answer.body}`).toBe(expected);
          // A refusal of sharing's own (SHARE_READ_ONLY, SHARE_ROOT_LOCKED, ...), and the not-found of any unknown id.
          if (answer.body) expect(answer.json<{ code: string }>().code, role).toMatch(expected === 403 ? /^SHARE_/ : /NOT_FOUND$/);
        }
      }
    });
  }

  for (const l of listings) {
    it(l.name, async () => {
      for (const role of ROLES) {
        const { answer, target } = await l.call(as[role]);
        const sees = l.seenBy.includes(role);
        if (!sees && answer.statusCode === 404) continue;
        expect(answer.statusCode, `${role}: ${answer.body}`).toBe(200);
        expect(answer.body.includes(target), `${role} sees ${target}: ${answer.body}`).toBe(sees);
      }
    });
  }

  it('covers every route that names an item, or lists items', () => {
    const covered = new Set([...cases, ...listings].map((c) => c.route));
    const registered = new Set(t.app.apiRoutes.map((r) => `${r.method} ${r.url}`));
    const isAccounted = (route: string): boolean => {
      const [method, url] = route.split(' ') as [string, string];
      // A HEAD twin answers as its GET does.
      if (method === 'HEAD' && registered.has(`GET ${url}`)) return isAccounted(`GET ${url}`);
      return covered.has(route) || NAMES_NO_ITEM.includes(route) || ELSEWHERE.some((prefix) => url.startsWith(prefix));
    };
    const missing = [...registered].filter((route) => !isAccounted(route));
    expect(missing).toEqual([]);
    // The lists name only routes that exist: a renamed route must not stay exempt under its old name.
    expect([...covered, ...NAMES_NO_ITEM].filter((r) => !registered.has(r))).toEqual([]);
  });
});
