import type { CreatedAppPasswordDto, FileDto, FileVersionListDto } from '@nimbus/common';
import type { LightMyRequestResponse } from 'fastify';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore } from '../../src/storage/create-stores.js';
import type { BlobStore } from '../../src/storage/blob-store.js';
import { DavClient, type DavAccount } from '../dav/dav-support.js';
import { createFolder, upload } from '../helpers/drive.js';
import { recordErrorAnswers, type ErrorAnswer } from '../helpers/error-answers.js';
import { multipartBody, type Part } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { share } from '../item-shares/helpers.js';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

async function uploadVersion(browser: TestBrowser, fileId: string, data: string | Buffer, parts?: Part[]): Promise<LightMyRequestResponse> {
  const { body, contentType } = await multipartBody(parts ?? [{ name: 'file', filename: 'new.bin', data }]);
  return browser.request('POST', `/file-service/upload-version/${fileId}`, body, { 'content-type': contentType });
}

async function replaced(browser: TestBrowser, fileId: string, data: string | Buffer): Promise<FileDto> {
  const answer = await uploadVersion(browser, fileId, data);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<FileDto>();
}

async function versionsOf(browser: TestBrowser, fileId: string): Promise<FileVersionListDto> {
  const answer = await browser.get(`/file-service/versions/${fileId}`);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<FileVersionListDto>();
}

const download = (browser: TestBrowser, fileId: string, versionId: string, query = '', headers: Record<string, string> = {}) =>
  browser.request('GET', `/file-service/versions/${fileId}/${versionId}/download${query}`, undefined, headers);

const codeOf = (answer: LightMyRequestResponse) => [answer.statusCode, answer.json<{ code: string }>().code];

interface Harness extends TestApp {
  account(): Promise<DavAccount>;
  /** Every error answer the app gave, by route: each must be documented in the API reference. */
  errors: ErrorAnswer[];
}

/** The whole server over real HTTP (WebDAV clients connect to it), recording its error answers. */
async function startApp(): Promise<Harness> {
  const t = await createTestApp({ search: { enabled: false, embeddings: null } });
  const errors = recordErrorAnswers(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  return {
    ...t,
    errors,
    async account() {
      const browser = new TestBrowser(t.app);
      const { id, email, password } = await browser.signUp();
      const created = await browser.post('/user-service/app-passwords', { name: 'WebDAV test' });
      if (created.statusCode !== 201) throw new Error(`app password failed: ${created.statusCode} ${created.body}`);
      const appPassword = created.json<CreatedAppPasswordDto>().password;
      return { browser, id, email, password, appPassword, dav: DavClient.basic(origin, email, appPassword) };
    },
  };
}

describe('the versions API', () => {
  let h: Harness;
  let blobs: BlobStore;
  let owner: DavAccount;

  /** The storage keys of a file's versions, from the database (the API never shows them). */
  const versionKeys = async (fileId: string) =>
    (await h.app.database.db.selectFrom('fileVersion').select(['id', 'storageKey']).where('fileId', '=', fileId).execute()).map(
      (r) => r.storageKey,
    );

  beforeAll(async () => {
    h = await startApp();
    blobs = createBlobStore(h.config.storage);
    owner = await h.account();
  });
  afterAll(async () => {
    await blobs?.close();
    await h?.close();
  });

  it('upload-version keeps the replaced content as a version, with its size, SHA-256 and author', async () => {
    const file = await upload(owner.browser, 'notes.txt', 'first');
    const after = await replaced(owner.browser, file._id, 'second!');
    expect(after).toMatchObject({ _id: file._id, filename: 'notes.txt', length: 7 });

    const list = await versionsOf(owner.browser, file._id);
    expect(list.current).toMatchObject({
      size: 7,
      sha256: sha256('second!'),
      author: { account: { id: owner.id, email: owner.email }, via: null },
    });
    expect(list.versions).toHaveLength(1);
    const [version] = list.versions;
    expect(version).toMatchObject({
      size: 5,
      sha256: sha256('first'),
      author: { account: { id: owner.id, email: owner.email }, via: null },
    });
    expect(Date.parse(version!.createdAt)).toBeLessThanOrEqual(Date.parse(version!.replacedAt));
    expect(Date.parse(list.current.createdAt)).toBeGreaterThanOrEqual(Date.parse(version!.replacedAt));

    // The file's own download serves the new content.
    expect((await owner.browser.get(`/file-service/download/${file._id}`)).body).toBe('second!');
  });

  it('identical content makes no version', async () => {
    const file = await upload(owner.browser, 'same.txt', 'unchanged');
    await replaced(owner.browser, file._id, 'unchanged');
    expect((await versionsOf(owner.browser, file._id)).versions).toEqual([]);
    await replaced(owner.browser, file._id, 'changed');
    await replaced(owner.browser, file._id, 'changed');
    expect((await versionsOf(owner.browser, file._id)).versions.map((v) => v.sha256)).toEqual([sha256('unchanged')]);
  });

  it('a WebDAV PUT over a file keeps a version naming the app password it came through', async () => {
    const folder = await createFolder(owner.browser, 'dav-docs');
    expect((await owner.dav.put('/dav/dav-docs/report.txt', 'draft 1')).status).toBe(201);
    expect((await owner.dav.put('/dav/dav-docs/report.txt', 'draft 2')).status).toBeLessThan(300);
    const files = (await owner.browser.get(`/file-service/list?parent=${folder._id}`)).json<FileDto[]>();
    const list = await versionsOf(owner.browser, files[0]!._id);
    expect(list.current).toMatchObject({ sha256: sha256('draft 2'), author: { account: { email: owner.email }, via: 'WebDAV test' } });
    expect(list.versions).toHaveLength(1);
    expect(list.versions[0]).toMatchObject({
      size: 7,
      sha256: sha256('draft 1'),
      author: { account: { id: owner.id, email: owner.email }, via: 'WebDAV test' },
    });
    // The same bytes again over WebDAV make none.
    await owner.dav.put('/dav/dav-docs/report.txt', 'draft 2');
    expect((await versionsOf(owner.browser, files[0]!._id)).versions).toHaveLength(1);
  });

  it('lists the versions newest first', async () => {
    const file = await upload(owner.browser, 'order.txt', 'v0');
    for (const content of ['v1', 'v2', 'v3']) await replaced(owner.browser, file._id, content);
    const list = await versionsOf(owner.browser, file._id);
    expect(list.current.sha256).toBe(sha256('v3'));
    expect(list.versions.map((v) => v.sha256)).toEqual([sha256('v2'), sha256('v1'), sha256('v0')]);
    const times = list.versions.map((v) => Date.parse(v.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("downloads a version's old bytes under the file's name, with Range and ETag", async () => {
    const file = await upload(owner.browser, 'letter.txt', 'old content here');
    await replaced(owner.browser, file._id, 'new content');
    const [version] = (await versionsOf(owner.browser, file._id)).versions;

    const whole = await download(owner.browser, file._id, version!.id);
    expect(whole.statusCode).toBe(200);
    expect(whole.body).toBe('old content here');
    expect(whole.headers['content-length']).toBe('16');
    expect(whole.headers['content-disposition']).toMatch(/^attachment;.*letter\.txt/);
    expect(whole.headers['x-content-type-options']).toBe('nosniff');
    expect(whole.headers.etag).toBe(`"${sha256('old content here')}"`);

    const part = await download(owner.browser, file._id, version!.id, '', { range: 'bytes=4-10' });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('content');
    expect(part.headers['content-range']).toBe('bytes 4-10/16');

    expect((await download(owner.browser, file._id, version!.id, '', { 'if-none-match': whole.headers.etag as string })).statusCode).toBe(
      304,
    );
    expect(codeOf(await download(owner.browser, file._id, version!.id, '', { range: 'bytes=100-200' }))).toEqual([
      416,
      'RANGE_NOT_SATISFIABLE',
    ]);
    const head = await owner.browser.request('HEAD', `/file-service/versions/${file._id}/${version!.id}/download`);
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('16');
    expect(head.body).toBe('');
    // Text is not shown in place, even when asked.
    expect((await download(owner.browser, file._id, version!.id, '?inline=true')).headers['content-disposition']).toMatch(/^attachment/);
  });

  it('serves an image version inline when asked, and as an attachment otherwise', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    const file = await upload(owner.browser, 'pic.png', png);
    await replaced(owner.browser, file._id, await sharp(png).flip().png({ compressionLevel: 0 }).toBuffer());
    const [version] = (await versionsOf(owner.browser, file._id)).versions;
    expect(version!.contentType).toBe('image/png');
    const inline = await download(owner.browser, file._id, version!.id, '?inline=true');
    expect(inline.statusCode).toBe(200);
    expect(inline.headers['content-type']).toBe('image/png');
    expect(inline.headers['content-disposition']).toMatch(/^inline;.*pic\.png/);
    expect(inline.rawPayload.equals(png)).toBe(true);
    expect((await download(owner.browser, file._id, version!.id)).headers['content-disposition']).toMatch(/^attachment/);
    expect((await download(owner.browser, file._id, version!.id, '?inline=false')).headers['content-disposition']).toMatch(/^attachment/);
  });

  it('restores a version: the content it replaces becomes a version, and nothing is lost', async () => {
    const file = await upload(owner.browser, 'draft.txt', 'original');
    await replaced(owner.browser, file._id, 'overwritten by mistake');
    const [original] = (await versionsOf(owner.browser, file._id)).versions;
    const keysBefore = await versionKeys(file._id);

    const restore = await owner.browser.post(`/file-service/versions/${file._id}/${original!.id}/restore`);
    expect(restore.statusCode, restore.body).toBe(200);
    expect(restore.json<FileDto>()).toMatchObject({ _id: file._id, filename: 'draft.txt', length: 8 });
    expect((await owner.browser.get(`/file-service/download/${file._id}`)).body).toBe('original');

    const list = await versionsOf(owner.browser, file._id);
    expect(list.current).toMatchObject({ sha256: sha256('original'), author: { account: { id: owner.id } } });
    expect(list.versions).toHaveLength(1);
    expect(list.versions[0]).toMatchObject({ sha256: sha256('overwritten by mistake') });
    expect((await download(owner.browser, file._id, list.versions[0]!.id)).body).toBe('overwritten by mistake');
    // The restored version's row is gone, its blob is the file's; nothing was released.
    expect(list.versions[0]!.id).not.toBe(original!.id);
    expect(codeOf(await download(owner.browser, file._id, original!.id))).toEqual([404, 'VERSION_NOT_FOUND']);
    await h.app.background.drainJobs();
    for (const key of keysBefore) expect(await blobs.stat(key)).not.toBeNull();
    expect((await owner.browser.get(`/file-service/download/${file._id}`)).body).toBe('original');

    // And back again.
    const again = await owner.browser.post(`/file-service/versions/${file._id}/${list.versions[0]!.id}/restore`);
    expect(again.statusCode).toBe(200);
    expect((await owner.browser.get(`/file-service/download/${file._id}`)).body).toBe('overwritten by mistake');
    expect((await versionsOf(owner.browser, file._id)).versions.map((v) => v.sha256)).toEqual([sha256('original')]);
  });

  it('restoring content identical to the current one changes nothing', async () => {
    const file = await upload(owner.browser, 'ab.txt', 'A');
    await replaced(owner.browser, file._id, 'B');
    await replaced(owner.browser, file._id, 'A');
    const before = await versionsOf(owner.browser, file._id);
    const sameAsCurrent = before.versions.find((v) => v.sha256 === sha256('A'))!;
    const answer = await owner.browser.post(`/file-service/versions/${file._id}/${sameAsCurrent.id}/restore`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json<FileDto>()).toMatchObject({ _id: file._id, length: 1 });
    expect(await versionsOf(owner.browser, file._id)).toEqual(before);
  });

  it('deletes a version and, once the job ran, its bytes', async () => {
    const file = await upload(owner.browser, 'gone.txt', 'to be deleted');
    await replaced(owner.browser, file._id, 'kept');
    const [version] = (await versionsOf(owner.browser, file._id)).versions;
    const [key] = await versionKeys(file._id);
    expect(await blobs.stat(key!)).not.toBeNull();

    const deleted = await owner.browser.delete(`/file-service/versions/${file._id}/${version!.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Version deleted' });
    expect((await versionsOf(owner.browser, file._id)).versions).toEqual([]);
    await h.app.background.drainJobs();
    expect(await blobs.stat(key!)).toBeNull();
    // The file itself is untouched.
    expect((await owner.browser.get(`/file-service/download/${file._id}`)).body).toBe('kept');

    expect(codeOf(await owner.browser.delete(`/file-service/versions/${file._id}/${version!.id}`))).toEqual([404, 'VERSION_NOT_FOUND']);
  });

  it('a restore and a delete of the same version at once never leave the file without its bytes', async () => {
    for (let round = 0; round < 5; round++) {
      const file = await upload(owner.browser, `race-${round}.txt`, `before ${round}`);
      await replaced(owner.browser, file._id, `after ${round}`);
      const [version] = (await versionsOf(owner.browser, file._id)).versions;
      const [restore, remove] = await Promise.all([
        owner.browser.post(`/file-service/versions/${file._id}/${version!.id}/restore`),
        owner.browser.delete(`/file-service/versions/${file._id}/${version!.id}`),
      ]);
      // Whichever came second found the version gone.
      expect([restore.statusCode, remove.statusCode].sort()).toEqual([200, 404]);
      await h.app.background.drainJobs();
      const current = await owner.browser.get(`/file-service/download/${file._id}`);
      expect(current.statusCode).toBe(200);
      expect(current.body).toBe(restore.statusCode === 200 ? `before ${round}` : `after ${round}`);
      for (const v of (await versionsOf(owner.browser, file._id)).versions)
        expect((await download(owner.browser, file._id, v.id)).statusCode).toBe(200);
    }
  });

  it('a trashed file keeps its versions for the owner, and restores nothing until it is back', async () => {
    const file = await upload(owner.browser, 'binned.txt', 'one');
    await replaced(owner.browser, file._id, 'two');
    const [version] = (await versionsOf(owner.browser, file._id)).versions;
    await owner.browser.patch('/file-service/trash', { id: file._id });
    expect((await versionsOf(owner.browser, file._id)).versions).toHaveLength(1);
    expect((await download(owner.browser, file._id, version!.id)).body).toBe('one');
    expect(codeOf(await owner.browser.post(`/file-service/versions/${file._id}/${version!.id}/restore`))).toEqual([404, 'FILE_NOT_FOUND']);
    expect(codeOf(await uploadVersion(owner.browser, file._id, 'three'))).toEqual([404, 'FILE_NOT_FOUND']);
    await owner.browser.patch('/file-service/restore', { id: file._id });
    expect((await owner.browser.post(`/file-service/versions/${file._id}/${version!.id}/restore`)).statusCode).toBe(200);
  });

  describe('through shares', () => {
    let editor: DavAccount;
    let viewer: DavAccount;
    let stranger: DavAccount;

    beforeAll(async () => {
      editor = await h.account();
      viewer = await h.account();
      stranger = await h.account();
    });

    const sharedFile = async (name: string) => {
      const folder = await createFolder(owner.browser, `team-${name}`);
      await share(owner.browser, 'folder', folder._id, editor.email, 'editor');
      await share(owner.browser, 'folder', folder._id, viewer.email, 'viewer');
      const file = await upload(owner.browser, name, 'v1', folder._id);
      await replaced(owner.browser, file._id, 'v2');
      const [version] = (await versionsOf(owner.browser, file._id)).versions;
      return { file, version: version! };
    };

    it('a viewer lists and downloads, but neither restores, deletes nor uploads', async () => {
      const { file, version } = await sharedFile('viewed.txt');
      expect((await versionsOf(viewer.browser, file._id)).versions.map((v) => v.id)).toEqual([version.id]);
      expect((await download(viewer.browser, file._id, version.id)).body).toBe('v1');
      expect(codeOf(await viewer.browser.post(`/file-service/versions/${file._id}/${version.id}/restore`))).toEqual([
        403,
        'SHARE_READ_ONLY',
      ]);
      expect(codeOf(await viewer.browser.delete(`/file-service/versions/${file._id}/${version.id}`))).toEqual([404, 'FILE_NOT_FOUND']);
      expect(codeOf(await uploadVersion(viewer.browser, file._id, 'v3'))).toEqual([403, 'SHARE_READ_ONLY']);
      expect((await owner.browser.get(`/file-service/download/${file._id}`)).body).toBe('v2');
      expect((await versionsOf(owner.browser, file._id)).versions).toHaveLength(1);
    });

    it('an editor restores and uploads (as the editor), but deletes nothing', async () => {
      const { file, version } = await sharedFile('edited.txt');
      const upload3 = await uploadVersion(editor.browser, file._id, 'v3 by editor');
      expect(upload3.statusCode, upload3.body).toBe(200);
      expect(upload3.json<FileDto>()).toMatchObject({ _id: file._id, shared: { role: 'editor' } });
      let list = await versionsOf(owner.browser, file._id);
      expect(list.current.author).toEqual({ account: { id: editor.id, email: editor.email }, via: null });
      expect(list.versions.map((v) => v.author.account?.email)).toEqual([owner.email, owner.email]);

      const restored = await editor.browser.post(`/file-service/versions/${file._id}/${version.id}/restore`);
      expect(restored.statusCode, restored.body).toBe(200);
      expect(restored.json<FileDto>()).toMatchObject({ _id: file._id, length: 2, shared: { role: 'editor' } });
      list = await versionsOf(editor.browser, file._id);
      expect(list.current).toMatchObject({ sha256: sha256('v1'), author: { account: { id: editor.id } } });
      expect(list.versions[0]).toMatchObject({ sha256: sha256('v3 by editor'), author: { account: { id: editor.id } } });

      expect(codeOf(await editor.browser.delete(`/file-service/versions/${file._id}/${list.versions[0]!.id}`))).toEqual([
        404,
        'FILE_NOT_FOUND',
      ]);
      expect((await versionsOf(owner.browser, file._id)).versions).toHaveLength(2);
    });

    it('a stranger is answered as for an unknown file, whatever the call', async () => {
      const { file, version } = await sharedFile('private.txt');
      const base = `/file-service/versions/${file._id}`;
      expect(codeOf(await stranger.browser.get(base))).toEqual([404, 'FILE_NOT_FOUND']);
      expect(codeOf(await download(stranger.browser, file._id, version.id))).toEqual([404, 'FILE_NOT_FOUND']);
      expect(codeOf(await stranger.browser.post(`${base}/${version.id}/restore`))).toEqual([404, 'FILE_NOT_FOUND']);
      expect(codeOf(await stranger.browser.delete(`${base}/${version.id}`))).toEqual([404, 'FILE_NOT_FOUND']);
      expect(codeOf(await uploadVersion(stranger.browser, file._id, 'x'))).toEqual([404, 'FILE_NOT_FOUND']);
      // Their own file with someone else's version id learns nothing either.
      const own = await upload(stranger.browser, 'mine.txt', 'a');
      await replaced(stranger.browser, own._id, 'b');
      expect(codeOf(await download(stranger.browser, own._id, version.id))).toEqual([404, 'VERSION_NOT_FOUND']);
      expect(codeOf(await stranger.browser.post(`/file-service/versions/${own._id}/${version.id}/restore`))).toEqual([
        404,
        'VERSION_NOT_FOUND',
      ]);
      expect(codeOf(await stranger.browser.delete(`/file-service/versions/${own._id}/${version.id}`))).toEqual([404, 'VERSION_NOT_FOUND']);
      expect((await versionsOf(owner.browser, file._id)).versions).toHaveLength(1);
    });

    it('a version id of another file of the same drive is not found', async () => {
      const a = await sharedFile('a.txt');
      const b = await sharedFile('b.txt');
      for (const who of [owner, editor, viewer]) {
        expect(codeOf(await download(who.browser, a.file._id, b.version.id))).toEqual([404, 'VERSION_NOT_FOUND']);
      }
      expect(codeOf(await editor.browser.post(`/file-service/versions/${a.file._id}/${b.version.id}/restore`))).toEqual([
        404,
        'VERSION_NOT_FOUND',
      ]);
      expect(codeOf(await owner.browser.post(`/file-service/versions/${a.file._id}/${b.version.id}/restore`))).toEqual([
        404,
        'VERSION_NOT_FOUND',
      ]);
      expect(codeOf(await owner.browser.delete(`/file-service/versions/${a.file._id}/${b.version.id}`))).toEqual([
        404,
        'VERSION_NOT_FOUND',
      ]);
      expect((await versionsOf(owner.browser, b.file._id)).versions).toHaveLength(1);
      expect((await owner.browser.get(`/file-service/download/${a.file._id}`)).body).toBe('v2');
    });
  });

  it('an account deleted since shows as no account, its app password name kept', async () => {
    const file = await upload(owner.browser, 'authored.txt', 'x1');
    await replaced(owner.browser, file._id, 'x2');
    const gone = await h.account();
    // Authors are read by id: a version stored by an account that no longer exists names nobody.
    await h.app.database.db.updateTable('fileVersion').set({ authorId: gone.id, via: 'laptop' }).where('fileId', '=', file._id).execute();
    expect((await versionsOf(owner.browser, file._id)).versions[0]!.author).toEqual({
      account: { id: gone.id, email: gone.email },
      via: 'laptop',
    });
    await h.app.database.db.updateTable('account').set({ deletedAt: Date.now() }).where('id', '=', gone.id).execute();
    expect((await versionsOf(owner.browser, file._id)).versions[0]!.author).toEqual({ account: null, via: 'laptop' });
    await h.app.database.db.updateTable('fileVersion').set({ authorId: null, via: null }).where('fileId', '=', file._id).execute();
    expect((await versionsOf(owner.browser, file._id)).versions[0]!.author).toEqual({ account: null, via: null });
  });

  describe('bad input', () => {
    let fileId: string;
    let versionId: string;

    beforeAll(async () => {
      fileId = (await upload(owner.browser, 'input.txt', 'in 1'))._id;
      await replaced(owner.browser, fileId, 'in 2');
      versionId = (await versionsOf(owner.browser, fileId)).versions[0]!.id;
    });

    it('refuses malformed and huge ids, and answers unknown ones 404', async () => {
      const huge = 'x'.repeat(65);
      const b = owner.browser;
      for (const answer of [
        await b.get(`/file-service/versions/${huge}`),
        await download(b, huge, versionId),
        await download(b, fileId, huge),
        await b.post(`/file-service/versions/${fileId}/${huge}/restore`),
        await b.delete(`/file-service/versions/${huge}/${versionId}`),
        await b.get(`/file-service/versions/${fileId}%00`),
        await download(b, fileId, `${versionId.slice(0, 4)}%00`),
        await uploadVersion(b, huge, 'x'),
      ]) {
        expect(codeOf(answer)).toEqual([400, 'VALIDATION_FAILED']);
      }
      expect(codeOf(await b.get('/file-service/versions/no-such-file'))).toEqual([404, 'FILE_NOT_FOUND']);
      expect(codeOf(await download(b, fileId, 'no-such-version'))).toEqual([404, 'VERSION_NOT_FOUND']);
      expect(codeOf(await b.post(`/file-service/versions/no-such-file/${versionId}/restore`))).toEqual([404, 'FILE_NOT_FOUND']);
      expect(codeOf(await uploadVersion(b, 'no-such-file', 'x'))).toEqual([404, 'FILE_NOT_FOUND']);
      // A folder's id is no file.
      const folder = await createFolder(b, 'not-a-file');
      expect(codeOf(await b.get(`/file-service/versions/${folder._id}`))).toEqual([404, 'FILE_NOT_FOUND']);
      expect(codeOf(await uploadVersion(b, folder._id, 'x'))).toEqual([404, 'FILE_NOT_FOUND']);
    });

    it('refuses a wrong inline flag, no session and no browser id', async () => {
      expect(codeOf(await download(owner.browser, fileId, versionId, '?inline=maybe'))).toEqual([400, 'VALIDATION_FAILED']);
      const anonymous = new TestBrowser(h.app);
      expect(codeOf(await anonymous.get(`/file-service/versions/${fileId}`))).toEqual([401, 'UNAUTHENTICATED']);
      expect(codeOf(await download(anonymous, fileId, versionId))).toEqual([401, 'UNAUTHENTICATED']);
      const noId = await owner.browser.request('POST', `/file-service/versions/${fileId}/${versionId}/restore`, undefined, {
        uuid: undefined,
      });
      expect(codeOf(noId)).toEqual([400, 'MISSING_BROWSER_ID']);
      const noIdDelete = await owner.browser.request('DELETE', `/file-service/versions/${fileId}/${versionId}`, undefined, {
        uuid: undefined,
      });
      expect(codeOf(noIdDelete)).toEqual([400, 'MISSING_BROWSER_ID']);
      expect((await versionsOf(owner.browser, fileId)).versions.map((v) => v.id)).toEqual([versionId]);
    });

    it('upload-version refuses a body without exactly one file part, or not multipart', async () => {
      const b = owner.browser;
      expect(codeOf(await uploadVersion(b, fileId, '', [{ name: 'filename', value: 'x.txt' }]))).toEqual([400, 'VALIDATION_FAILED']);
      const two = await uploadVersion(b, fileId, '', [
        { name: 'file', filename: 'a.txt', data: 'first part' },
        { name: 'file', filename: 'b.txt', data: 'second part' },
      ]);
      expect(codeOf(two)).toEqual([400, 'VALIDATION_FAILED']);
      const json = await b.request('POST', `/file-service/upload-version/${fileId}`, JSON.stringify({ file: 'x' }), {
        'content-type': 'application/json',
      });
      expect(codeOf(json)).toEqual([400, 'VALIDATION_FAILED']);
      const text = await b.request('POST', `/file-service/upload-version/${fileId}`, 'raw bytes', { 'content-type': 'text/plain' });
      expect(text.statusCode).toBeGreaterThanOrEqual(400);
      expect(text.statusCode).toBeLessThan(500);
      const noUuid = await b.request('POST', `/file-service/upload-version/${fileId}`, 'x', {
        uuid: undefined,
        'content-type': 'text/plain',
      });
      expect(noUuid.statusCode).toBe(400);

      // None of these changed the file or its versions; only the content of a lone part before the failure could have.
      await h.app.background.drainJobs();
      const list = await versionsOf(b, fileId);
      expect(list.current.sha256).toBe(sha256('in 2'));
      expect(list.versions.map((v) => v.id)).toEqual([versionId]);
    });

    it('upload-version takes its file part among other fields, and refuses a second file part of any name', async () => {
      const other = await upload(owner.browser, 'fields.txt', 'before');
      const answer = await uploadVersion(owner.browser, other._id, '', [
        { name: 'note', value: 'ignored' },
        { name: 'attachment', filename: 'a.txt', data: 'not this one' },
        { name: 'file', filename: 'b.txt', data: 'this one' },
      ]);
      // Two file parts in all: refused as a whole.
      expect(codeOf(answer)).toEqual([400, 'VALIDATION_FAILED']);
      const ok = await uploadVersion(owner.browser, other._id, '', [
        { name: 'note', value: 'ignored' },
        { name: 'file', filename: 'b.txt', data: 'this one' },
      ]);
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await owner.browser.get(`/file-service/download/${other._id}`)).body).toBe('this one');
      // The name stays the file's, whatever the part was called.
      expect(ok.json<FileDto>().filename).toBe('fields.txt');
    });
  });
  it('documents every error answer these calls got, under its status', async () => {
    type Operation = {
      responses: Record<string, { content?: Record<string, { schema?: { properties?: { code?: { enum?: string[] } } } }> }>;
    };
    const paths = (await h.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>().paths;
    const ours = h.errors.filter((e) => e.route.startsWith('/file-service/versions') || e.route.startsWith('/file-service/upload-version'));
    expect(new Set(ours.map((e) => e.route)).size).toBe(5);
    const undocumented = ours.filter((e) => {
      const op = paths[e.route.replace(/:(\w+)/g, '{$1}')]?.[e.method.toLowerCase()];
      return !op?.responses[String(e.status)]?.content?.['application/json']?.schema?.properties?.code?.enum?.includes(e.code);
    });
    expect(undocumented).toEqual([]);
  });
});
