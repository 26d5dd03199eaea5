import type { CreatedAppPasswordDto, FileVersionListDto } from '@nimbus/common';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DavClient, startDavApp, type DavAccount, type DavHarness } from '../dav/dav-support.js';
import { createFolder, upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { share } from '../item-shares/helpers.js';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const SHARED = '/dav/Shared%20with%20me';
/** Contents stored in one millisecond would tie on their times: each PUT gets its own. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('WebDAV and uploads record who stored each content', () => {
  let h: DavHarness;
  let owner: DavAccount;
  let editor: DavAccount;
  let viewer: DavAccount;
  let laptop: DavClient;
  let folder: string;

  beforeAll(async () => {
    h = await startDavApp();
    [owner, editor, viewer] = [await h.account(), await h.account(), await h.account()];
    // A second device of the owner's, with its own app password.
    const created = await owner.browser.post('/user-service/app-passwords', { name: 'rclone on the laptop' });
    laptop = DavClient.basic(h.origin, owner.email, created.json<CreatedAppPasswordDto>().password);
    const team = await createFolder(owner.browser, 'Team');
    folder = team._id;
    await share(owner.browser, 'folder', team._id, editor.email, 'editor');
    await share(owner.browser, 'folder', team._id, viewer.email, 'viewer');
  });
  afterAll(() => h.close());

  const db = () => h.app.database.db;
  const fileNamed = (ownerId: string, filename: string) =>
    db().selectFrom('file').selectAll().where('ownerId', '=', ownerId).where('filename', '=', filename).executeTakeFirstOrThrow();
  const versionsOf = (fileId: string) =>
    db()
      .selectFrom('fileVersion')
      .selectAll()
      .where('fileId', '=', fileId)
      .orderBy('uploadedAt', 'desc')
      .orderBy('replacedAt', 'desc')
      .execute();

  it('a new file put over WebDAV is the account’s, through the app password it signed in with', async () => {
    expect((await owner.dav.put('/dav/notes.txt', 'one')).status).toBe(201);
    expect(await fileNamed(owner.id, 'notes.txt')).toMatchObject({ contentAuthorId: owner.id, contentVia: 'WebDAV test' });
  });

  it('a PUT over an existing file keeps the old content as a version, with who stored it and through which app password', async () => {
    await tick();
    expect((await laptop.put('/dav/notes.txt', 'two')).status).toBe(204);
    await tick();
    expect((await owner.dav.put('/dav/notes.txt', 'three')).status).toBe(204);
    const file = await fileNamed(owner.id, 'notes.txt');
    expect(file).toMatchObject({ sha256: sha256('three'), contentAuthorId: owner.id, contentVia: 'WebDAV test' });
    const versions = await versionsOf(file.id);
    expect(versions.map((v) => [v.sha256, v.via, v.authorId])).toEqual([
      [sha256('two'), 'rclone on the laptop', owner.id],
      [sha256('one'), 'WebDAV test', owner.id],
    ]);
    // The API tells them apart the same way.
    const listed = (await owner.browser.get(`/file-service/versions/${file.id}`)).json<FileVersionListDto>();
    expect(listed.current.author).toEqual({ account: { id: owner.id, email: owner.email }, via: 'WebDAV test' });
    expect(listed.versions.map((v) => v.author.via)).toEqual(['rclone on the laptop', 'WebDAV test']);
    // Each old content is still there to read.
    for (const v of versions) {
      const old = await owner.browser.get(`/file-service/versions/${file.id}/${v.id}/download`);
      expect(sha256(old.rawPayload)).toBe(v.sha256);
    }
  });

  it('putting the same bytes again makes no version', async () => {
    const file = await fileNamed(owner.id, 'notes.txt');
    const before = await versionsOf(file.id);
    expect((await laptop.put('/dav/notes.txt', 'three')).status).toBe(204);
    expect(await versionsOf(file.id)).toHaveLength(before.length);
    // Unchanged content keeps its author too.
    expect(await fileNamed(owner.id, 'notes.txt')).toMatchObject({ contentVia: 'WebDAV test' });
  });

  it('a wrong app password stores nothing and makes no version', async () => {
    const file = await fileNamed(owner.id, 'notes.txt');
    const before = await versionsOf(file.id);
    const wrong = DavClient.basic(h.origin, owner.email, 'not-the-password');
    expect((await wrong.put('/dav/notes.txt', 'hostile')).status).toBe(401);
    expect(await versionsOf(file.id)).toHaveLength(before.length);
    expect((await fileNamed(owner.id, 'notes.txt')).sha256).toBe(sha256('three'));
  });

  it('an editor’s PUT under Shared with me is recorded as the editor’s, through the editor’s app password, in the owner’s drive', async () => {
    await upload(owner.browser, 'plan.txt', 'owner draft', folder);
    expect((await editor.dav.put(`${SHARED}/Team/plan.txt`, 'editor draft')).status).toBe(204);
    const file = await fileNamed(owner.id, 'plan.txt');
    expect(file).toMatchObject({ sha256: sha256('editor draft'), contentAuthorId: editor.id, contentVia: 'WebDAV test' });
    const versions = await versionsOf(file.id);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ ownerId: owner.id, authorId: owner.id, via: null, sha256: sha256('owner draft') });
    // A new file the editor puts there is the owner's, stored by the editor.
    expect((await editor.dav.put(`${SHARED}/Team/new.txt`, 'new')).status).toBe(201);
    expect(await fileNamed(owner.id, 'new.txt')).toMatchObject({ contentAuthorId: editor.id, contentVia: 'WebDAV test' });
  });

  it('a viewer’s PUT is refused and makes no version', async () => {
    const file = await fileNamed(owner.id, 'plan.txt');
    const before = await versionsOf(file.id);
    expect((await viewer.dav.put(`${SHARED}/Team/plan.txt`, 'viewer draft')).status).toBe(403);
    expect(await versionsOf(file.id)).toHaveLength(before.length);
  });

  it('a COPY makes a content stored by the caller through its app password', async () => {
    const copied = await laptop.request('COPY', '/dav/notes.txt', { headers: { destination: `${h.origin}/dav/notes-copy.txt` } });
    expect(copied.status).toBe(201);
    expect(await fileNamed(owner.id, 'notes-copy.txt')).toMatchObject({
      sha256: sha256('three'),
      contentAuthorId: owner.id,
      contentVia: 'rclone on the laptop',
    });
    expect(await versionsOf((await fileNamed(owner.id, 'notes-copy.txt')).id)).toHaveLength(0);
  });

  it('a LOCK of an unmapped URL makes an empty file stored through the app password', async () => {
    const body =
      '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>' +
      '<D:locktype><D:write/></D:locktype></D:lockinfo>';
    expect((await laptop.request('LOCK', '/dav/locked.txt', { headers: { 'content-type': 'application/xml' }, body })).status).toBe(201);
    expect(await fileNamed(owner.id, 'locked.txt')).toMatchObject({ size: 0, contentVia: 'rclone on the laptop' });
  });

  it('web uploads by an editor (one file, a folder) are recorded as the editor’s; the owner’s own as the owner’s', async () => {
    await upload(editor.browser, 'from-editor.txt', 'e', folder);
    expect(await fileNamed(owner.id, 'from-editor.txt')).toMatchObject({ contentAuthorId: editor.id, contentVia: null });
    await upload(owner.browser, 'from-owner.txt', 'o', folder);
    expect(await fileNamed(owner.id, 'from-owner.txt')).toMatchObject({ contentAuthorId: owner.id, contentVia: null });

    const { body, contentType } = await multipartBody([
      { name: 'parent', value: folder },
      { name: 'file-data', value: JSON.stringify({ path: 'sub/deep.txt', index: 0 }) },
      { name: 'file', filename: 'deep.txt', data: 'deep' },
    ]);
    const answer = await editor.browser.request('POST', '/folder-service/upload', body, { 'content-type': contentType });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(await fileNamed(owner.id, 'deep.txt')).toMatchObject({ contentAuthorId: editor.id, contentVia: null });
  });
});

describe('WebDAV replacements at the quota', () => {
  let h: DavHarness;
  let owner: DavAccount;

  beforeAll(async () => {
    h = await startDavApp({ storageQuotaBytes: 1000 });
    owner = await h.account();
  });
  afterAll(() => h.close());

  const versionSizes = async () =>
    (
      await h.app.database.db
        .selectFrom('fileVersion')
        .select(['size', 'uploadedAt'])
        .where('ownerId', '=', owner.id)
        .orderBy('uploadedAt')
        .execute()
    ).map((v) => Number(v.size));

  it('the oldest versions give way to new content; a PUT over quota even without versions is refused (507)', async () => {
    expect((await owner.dav.put('/dav/a.bin', 'a'.repeat(350))).status).toBe(201);
    await tick();
    expect((await owner.dav.put('/dav/a.bin', 'b'.repeat(200))).status).toBe(204);
    await tick();
    expect((await owner.dav.put('/dav/a.bin', 'c'.repeat(250))).status).toBe(204);
    // 350 + 200 kept: at most half the quota (500) may be versions, so the oldest went.
    expect(await versionSizes()).toEqual([200]);
    // A new 500-byte file: 450 charged + 500 = 950 fits with the version kept.
    expect((await owner.dav.put('/dav/b.bin', 'd'.repeat(500))).status).toBe(201);
    expect(await versionSizes()).toEqual([200]);
    // 200 more do not fit beside it: the version gives way.
    expect((await owner.dav.put('/dav/c.bin', 'e'.repeat(200))).status).toBe(201);
    expect(await versionSizes()).toEqual([]);
    // 950 stored, no versions left: 351 bytes in place of 250 are refused, and the file stays as it was.
    expect((await owner.dav.put('/dav/a.bin', 'f'.repeat(351))).status).toBe(507);
    expect((await owner.dav.get('/dav/a.bin')).text).toBe('c'.repeat(250));
  });
});
