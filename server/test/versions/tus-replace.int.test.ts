import type { FileDto } from '@nimbus/common';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { share } from '../item-shares/helpers.js';

const BASE = '/file-service/tus';
const TUS = { 'tus-resumable': '1.0.0' };
const OFFSET_TYPE = 'application/offset+octet-stream';
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const b64 = (v: string) => Buffer.from(v).toString('base64');
const replacing = (fileId: string, filename = 'ignored.txt') => `filename ${b64(filename)},replaces ${b64(fileId)}`;

describe('a tus upload that replaces a file', () => {
  let t: TestApp;
  let owner: TestBrowser;
  let ownerId: string;
  let editor: TestBrowser;
  let editorId: string;
  let editorEmail: string;
  let viewer: TestBrowser;
  let stranger: TestBrowser;
  let shared: { _id: string };

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
    owner = new TestBrowser(t.app);
    ownerId = (await owner.signUp()).id;
    editor = new TestBrowser(t.app);
    const e = await editor.signUp();
    editorId = e.id;
    editorEmail = e.email;
    viewer = new TestBrowser(t.app);
    const v = await viewer.signUp();
    stranger = new TestBrowser(t.app);
    await stranger.signUp();
    shared = await createFolder(owner, 'Shared');
    await share(owner, 'folder', shared._id, e.email, 'editor');
    await share(owner, 'folder', shared._id, v.email, 'viewer');
  });
  afterAll(() => t.close());

  const versionsOf = (fileId: string) =>
    t.app.database.db.selectFrom('fileVersion').selectAll().where('fileId', '=', fileId).orderBy('uploadedAt', 'desc').execute();
  const fileRow = (fileId: string) => t.app.database.db.selectFrom('file').selectAll().where('id', '=', fileId).executeTakeFirstOrThrow();

  /** Creates the upload and sends all of `data` with it (creation-with-upload). */
  const replaceAtOnce = (b: TestBrowser, metadata: string, data: string) =>
    b.request('POST', BASE, data, {
      ...TUS,
      'upload-length': String(Buffer.byteLength(data)),
      'upload-metadata': metadata,
      'content-type': OFFSET_TYPE,
    });

  const create = (b: TestBrowser, metadata: string, length: number) =>
    b.request('POST', BASE, undefined, { ...TUS, 'upload-length': String(length), 'upload-metadata': metadata });

  const patch = (b: TestBrowser, location: string, offset: number, data: string) =>
    b.request('PATCH', location, data, { ...TUS, 'upload-offset': String(offset), 'content-type': OFFSET_TYPE });

  const download = async (b: TestBrowser, fileId: string) => (await b.get(`/file-service/download/${fileId}`)).body;

  it('the finished upload becomes the file’s content; the old content is kept as a version by its author', async () => {
    const file = await upload(owner, 'report.txt', 'first draft');
    // Two pieces (a piece keeps whole 64 KiB chunks unless it is the last): nothing changes until the last byte is stored.
    const head = 'x'.repeat(64 * 1024);
    const content = `${head}second draft`;
    const created = await create(owner, replacing(file._id), content.length);
    expect(created.statusCode, created.body).toBe(201);
    const location = created.headers.location as string;
    expect((await patch(owner, location, 0, head)).statusCode).toBe(204);
    expect(await download(owner, file._id)).toBe('first draft');
    expect(await versionsOf(file._id)).toHaveLength(0);
    const last = await patch(owner, location, head.length, 'second draft');
    expect(last.statusCode, last.body).toBe(204);
    expect(last.headers['nimbus-file-id']).toBe(file._id);

    expect(await download(owner, file._id)).toBe(content);
    const row = await fileRow(file._id);
    expect(row).toMatchObject({
      filename: 'report.txt',
      folderId: null,
      sha256: sha256(content),
      contentAuthorId: ownerId,
      contentVia: null,
    });
    const versions = await versionsOf(file._id);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ size: 'first draft'.length, sha256: sha256('first draft'), authorId: ownerId, ownerId });
    const old = await owner.get(`/file-service/versions/${file._id}/${versions[0]!.id}/download`);
    expect(old.statusCode).toBe(200);
    expect(old.body).toBe('first draft');
    // No second file appeared.
    const listed = (await owner.get('/file-service/list?search=report')).json<FileDto[]>();
    expect(listed.map((f) => f._id)).toEqual([file._id]);
  });

  it('the same content again makes no version and leaves the file as it was', async () => {
    const file = await upload(owner, 'same.txt', 'unchanged');
    const before = await fileRow(file._id);
    const answer = await replaceAtOnce(owner, replacing(file._id), 'unchanged');
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.headers['nimbus-file-id']).toBe(file._id);
    expect(await versionsOf(file._id)).toHaveLength(0);
    expect(await fileRow(file._id)).toMatchObject({ storageKey: before.storageKey, uploadedAt: before.uploadedAt });
    // The upload is done: a HEAD answers its full offset.
    const head = await owner.request('HEAD', answer.headers.location as string, undefined, TUS);
    expect(head.headers['upload-offset']).toBe('9');
  });

  it('an editor of the folder replaces the owner’s file: recorded as the editor’s content, in the owner’s drive', async () => {
    const file = await upload(owner, 'plan.txt', 'owner wrote this', shared._id);
    const answer = await replaceAtOnce(editor, replacing(file._id), 'editor wrote this');
    expect(answer.statusCode, answer.body).toBe(201);
    expect(await download(owner, file._id)).toBe('editor wrote this');
    expect(await fileRow(file._id)).toMatchObject({ ownerId, folderId: shared._id, contentAuthorId: editorId });
    const versions = await versionsOf(file._id);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ ownerId, authorId: ownerId, sha256: sha256('owner wrote this') });
  });

  it('an editor continues a replacement the owner started, and the owner one the editor started', async () => {
    const file = await upload(owner, 'relay.txt', 'v1', shared._id);
    const started = await create(owner, replacing(file._id), 4);
    expect((await patch(editor, started.headers.location as string, 0, 'v2v2')).statusCode).toBe(204);
    expect(await download(owner, file._id)).toBe('v2v2');

    const second = await create(editor, replacing(file._id), 2);
    expect(second.statusCode, second.body).toBe(201);
    expect((await patch(owner, second.headers.location as string, 0, 'v3')).statusCode).toBe(204);
    expect(await download(owner, file._id)).toBe('v3');
    // Started by the editor: the content is the editor's, whoever sent its last piece.
    expect((await fileRow(file._id)).contentAuthorId).toBe(editorId);
    expect((await versionsOf(file._id)).map((v) => v.sha256)).toEqual([sha256('v2v2'), sha256('v1')]);
  });

  it('an editor of the file itself (not of a folder) may replace it and continue the upload', async () => {
    const file = await upload(owner, 'alone.txt', 'alone v1');
    await share(owner, 'file', file._id, editorEmail, 'editor');
    const created = await create(editor, replacing(file._id), 8);
    expect(created.statusCode, created.body).toBe(201);
    expect((await patch(editor, created.headers.location as string, 0, 'alone v2')).statusCode).toBe(204);
    expect(await download(owner, file._id)).toBe('alone v2');
  });

  it('a viewer is refused (403); a stranger learns nothing (404)', async () => {
    const file = await upload(owner, 'guarded.txt', 'guarded', shared._id);
    const byViewer = await create(viewer, replacing(file._id), 1);
    expect(byViewer.statusCode).toBe(403);
    expect(byViewer.json<{ code: string }>().code).toBe('SHARE_READ_ONLY');
    const byStranger = await create(stranger, replacing(file._id), 1);
    expect(byStranger.statusCode).toBe(404);
    expect(byStranger.json<{ code: string }>().code).toBe('FILE_NOT_FOUND');
    // Nor may they continue the owner's replacement.
    const started = await create(owner, replacing(file._id), 1);
    expect((await patch(viewer, started.headers.location as string, 0, 'x')).statusCode).toBe(403);
    expect((await patch(stranger, started.headers.location as string, 0, 'x')).statusCode).toBe(404);
    expect(await download(owner, file._id)).toBe('guarded');
  });

  it('refuses replaces that is malformed, unknown, another user’s, trashed or a folder', async () => {
    const strangers = await upload(stranger, 'theirs.txt', 'theirs');
    const trashed = await upload(owner, 'trashed.txt', 'trashed');
    expect((await owner.patch('/file-service/trash', { id: trashed._id })).statusCode).toBeLessThan(300);
    const folder = await createFolder(owner, 'Not a file');
    const cases: [string, number, string][] = [
      ['', 400, 'VALIDATION_FAILED'],
      ['NOT-AN-ID', 400, 'VALIDATION_FAILED'],
      ['a'.repeat(65), 400, 'VALIDATION_FAILED'],
      ["x' or 1=1 --", 400, 'VALIDATION_FAILED'],
      ['../../etc/passwd', 400, 'VALIDATION_FAILED'],
      ['\u0000', 400, 'VALIDATION_FAILED'],
      ['0000000000000000000000000', 404, 'FILE_NOT_FOUND'],
      [strangers._id, 404, 'FILE_NOT_FOUND'],
      [trashed._id, 404, 'FILE_NOT_FOUND'],
      [folder._id, 404, 'FILE_NOT_FOUND'],
    ];
    for (const [value, status, code] of cases) {
      const answer = await create(owner, `filename ${b64('x.txt')},replaces ${b64(value)}`, 3);
      expect(answer.statusCode, `${JSON.stringify(value)}: ${answer.body}`).toBe(status);
      expect(answer.json<{ code: string }>().code, JSON.stringify(value)).toBe(code);
    }
    // A replaces key without a value is malformed too.
    const bare = await create(owner, `filename ${b64('x.txt')},replaces`, 3);
    expect(bare.statusCode).toBe(400);
    expect(await download(stranger, strangers._id)).toBe('theirs');
    expect(
      await t.app.database.db
        .selectFrom('tusUpload')
        .select('id')
        .where('replacesFileId', 'is not', null)
        .where('ownerId', '!=', ownerId)
        .execute(),
    ).toHaveLength(0);
  });

  it('a file trashed while its replacement uploads is not changed: the upload ends, its bytes go', async () => {
    const file = await upload(owner, 'gone-meanwhile.txt', 'kept as is');
    const created = await create(owner, replacing(file._id), 3);
    expect((await owner.patch('/file-service/trash', { id: file._id })).statusCode).toBeLessThan(300);
    const last = await patch(owner, created.headers.location as string, 0, 'new');
    expect(last.statusCode).toBe(404);
    expect(await versionsOf(file._id)).toHaveLength(0);
    expect((await fileRow(file._id)).sha256).toBe(sha256('kept as is'));
    expect(await t.app.database.db.selectFrom('tusUpload').select('id').where('replacesFileId', '=', file._id).execute()).toHaveLength(0);
  });

  it('a drop link’s visitor cannot replace anything: replaces is ignored there', async () => {
    const file = await upload(owner, 'not-for-visitors.txt', 'owner only', shared._id);
    const link = (await owner.post('/share-service/links', { itemType: 'folder', itemId: shared._id, kind: 'drop' })).json<{
      token: string;
    }>();
    const visitor = new TestBrowser(t.app);
    const answer = await visitor.request('POST', `/share-service/public/${link.token}/tus`, 'visitor', {
      ...TUS,
      'upload-length': '7',
      'upload-metadata': replacing(file._id, 'dropped.txt'),
      'content-type': OFFSET_TYPE,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(await download(owner, file._id)).toBe('owner only');
    expect(await versionsOf(file._id)).toHaveLength(0);
  });
});

describe('the quota of a tus creation', () => {
  let t: TestApp;
  let owner: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null }, storageQuotaBytes: 1000 });
    owner = new TestBrowser(t.app);
    await owner.signUp();
  });
  afterAll(() => t.close());

  const create = (metadata: string, length: number) =>
    owner.request('POST', BASE, undefined, { ...TUS, 'upload-length': String(length), 'upload-metadata': metadata });
  const versionBytes = async () =>
    (await t.app.database.db.selectFrom('fileVersion').select('size').execute()).reduce((sum, v) => sum + Number(v.size), 0);

  it('counts kept versions, and the content a replacement turns into one, as room', async () => {
    const file = await upload(owner, 'big.bin', 'a'.repeat(400));
    // 400 charged; replacing them keeps the 400 as a version, within its share of the quota.
    const replaced = await owner.request('POST', BASE, 'b'.repeat(400), {
      ...TUS,
      'upload-length': '400',
      'upload-metadata': replacing(file._id),
      'content-type': OFFSET_TYPE,
    });
    expect(replaced.statusCode, replaced.body).toBe(201);
    expect(await versionBytes()).toBe(400);
    // 800 charged, 400 of it a version: a new 500-byte file fits once the version gives way.
    const fits = await create(`filename ${b64('new.bin')}`, 500);
    expect(fits.statusCode, fits.body).toBe(201);
    // 800 + 500 reserved; without versions 900: 200 more does not fit.
    const refused = await create(`filename ${b64('more.bin')}`, 200);
    expect(refused.statusCode).toBe(413);
    expect(refused.json<{ code: string }>().code).toBe('QUOTA_EXCEEDED');
    const last = await owner.request('PATCH', fits.headers.location as string, 'c'.repeat(500), {
      ...TUS,
      'upload-offset': '0',
      'content-type': OFFSET_TYPE,
    });
    expect(last.statusCode, last.body).toBe(204);
    // The version went to make room for the new file.
    expect(await versionBytes()).toBe(0);
    const usage = (await owner.get('/user-service/storage')).json<{ usedBytes: number }>();
    expect(usage.usedBytes).toBe(900);
  });

  it('a replacement larger than the quota allows even without versions is refused at creation', async () => {
    const file = (await owner.get('/file-service/list?search=big.bin')).json<FileDto[]>()[0]!;
    const refused = await create(replacing(file._id), 1000 - 500 + 1);
    expect(refused.statusCode).toBe(413);
    expect(refused.json<{ code: string }>().code).toBe('QUOTA_EXCEEDED');
  });
});
