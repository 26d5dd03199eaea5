import type { CreatedAppPasswordDto, FileDto, FileVersionListDto, RestoreAsOfResultDto } from '@nimbus/common';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DavClient } from '../dav/dav-support.js';
import { createFolder, upload } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const ZERO = { revertedFiles: 0, restoredFromTrash: 0, movedToTrash: 0, notRecoverable: 0 };

interface Account {
  browser: TestBrowser;
  id: string;
  dav: DavClient;
}

/**
 * A folder put back as it was at a time after a sync that overwrote and deleted files over WebDAV
 * (the ransomware case): every file's bytes as they were, the deleted ones back, the new ones in
 * the trash, and nothing more on a second run.
 */
describe('restore a folder as it was at a time', () => {
  let t: TestApp;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  async function account(): Promise<Account> {
    const browser = new TestBrowser(t.app);
    const { id, email } = await browser.signUp();
    const created = await browser.post('/user-service/app-passwords', { name: 'laptop sync' });
    expect(created.statusCode).toBe(201);
    return { browser, id, dav: DavClient.basic(origin, email, created.json<CreatedAppPasswordDto>().password) };
  }

  /** Every file of the account, trashed ones included, straight from the database. */
  async function filesOf(ownerId: string) {
    return t.app.database.db
      .selectFrom('file')
      .select(['id', 'filename', 'folderId', 'sha256', 'trashedAt'])
      .where('ownerId', '=', ownerId)
      .execute();
  }

  async function downloadedSha(b: TestBrowser, id: string): Promise<string> {
    const got = await b.get(`/file-service/download/${id}`);
    expect(got.statusCode).toBe(200);
    return sha256(got.rawPayload);
  }

  /** A moment strictly between what came before and what comes after (times are in milliseconds). */
  async function moment(): Promise<string> {
    await sleep(5);
    const at = new Date().toISOString();
    await sleep(5);
    return at;
  }

  const restoreAsOf = (b: TestBrowser, id: string, at: string) => b.post('/folder-service/restore-as-of', { id, at });

  it('after a sync that overwrote 200 files and deleted 50, the folder is back as it was: same bytes, the 50 back, the new files in the trash', async () => {
    const me = await account();
    const work = await createFolder(me.browser, 'Work');
    const sub = await createFolder(me.browser, 'Sub', work._id);
    // 250 files, 50 of them one level down; written over WebDAV as the sync client first did.
    const paths = Array.from({ length: 250 }, (_, i) => (i < 200 ? `/dav/Work/doc-${i}.bin` : `/dav/Work/Sub/doc-${i}.bin`));
    const original = new Map<string, string>();
    for (const p of paths) {
      const bytes = randomBytes(1024 + (p.length % 7) * 100);
      expect((await me.dav.put(p, bytes)).status).toBe(201);
      original.set(p.slice(p.lastIndexOf('/') + 1), sha256(bytes));
    }
    // Outside the folder: the folder's restore leaves it alone.
    const outside = await upload(me.browser, 'outside.txt', 'outside, before');

    const at = await moment();

    // The bad sync: 200 files overwritten (40 of them in Sub), 50 deleted (10 in Sub), 5 new files.
    const overwritten = [...paths.slice(0, 160), ...paths.slice(200, 240)];
    const deleted = [...paths.slice(160, 200), ...paths.slice(240, 250)];
    for (const p of overwritten) expect((await me.dav.put(p, randomBytes(1500))).status).toBe(204);
    for (const p of deleted) expect((await me.dav.request('DELETE', p)).status).toBe(204);
    for (let i = 0; i < 5; i++) expect((await me.dav.put(`/dav/Work/${i % 2 ? 'Sub/' : ''}READ-ME-${i}.txt`, 'pay up')).status).toBe(201);
    expect((await me.dav.put('/dav/outside.txt', 'outside, after')).status).toBe(204);
    const afterSync = await filesOf(me.id);
    expect(afterSync.filter((f) => f.trashedAt !== null)).toHaveLength(50);

    const started = performance.now();
    const answer = await restoreAsOf(me.browser, work._id, at);
    const took = performance.now() - started;
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json<RestoreAsOfResultDto>()).toEqual({ revertedFiles: 200, restoredFromTrash: 50, movedToTrash: 5, notRecoverable: 0 });
    console.info(`restore-as-of of 250 files (200 reverted, 50 restored, 5 trashed): ${Math.round(took)} ms`);

    const after = await filesOf(me.id);
    const active = after.filter((f) => f.trashedAt === null && f.id !== outside._id);
    expect(active.map((f) => f.filename).sort()).toEqual([...original.keys()].sort());
    for (const f of active) {
      expect(f.folderId, f.filename).toBe(Number(/\d+/.exec(f.filename)![0]) < 200 ? work._id : sub._id);
      expect(await downloadedSha(me.browser, f.id), f.filename).toBe(original.get(f.filename));
    }
    const trashed = after.filter((f) => f.trashedAt !== null);
    expect(trashed.map((f) => f.filename).sort()).toEqual([
      'READ-ME-0.txt',
      'READ-ME-1.txt',
      'READ-ME-2.txt',
      'READ-ME-3.txt',
      'READ-ME-4.txt',
    ]);
    expect((await me.browser.get(`/file-service/download/${outside._id}`)).body).toBe('outside, after');

    // The sync's contents are versions now: the restore itself can be undone.
    const kept = await t.app.database.db.selectFrom('fileVersion').select('fileId').where('ownerId', '=', me.id).execute();
    expect(new Set(kept.filter((v) => v.fileId !== outside._id).map((v) => v.fileId)).size).toBe(200);

    // Once more: nothing left to do.
    const again = await restoreAsOf(me.browser, work._id, at);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<RestoreAsOfResultDto>()).toEqual(ZERO);
    const afterAgain = await filesOf(me.id);
    expect(afterAgain.map((f) => [f.id, f.sha256, f.trashedAt])).toEqual(after.map((f) => [f.id, f.sha256, f.trashedAt]));

    // The whole drive: the file outside the folder too.
    const drive = await restoreAsOf(me.browser, '/', at);
    expect(drive.json<RestoreAsOfResultDto>()).toEqual({ ...ZERO, revertedFiles: 1 });
    expect((await me.browser.get(`/file-service/download/${outside._id}`)).body).toBe('outside, before');
  }, 120_000);

  it('a folder trashed since comes back with what it held then; one trashed before stays in the trash', async () => {
    const me = await account();
    const top = await createFolder(me.browser, 'Top');
    const gone = await createFolder(me.browser, 'Gone', top._id);
    const old = await createFolder(me.browser, 'Old', top._id);
    const inGone = await upload(me.browser, 'a.txt', 'a', gone._id);
    const loose = await upload(me.browser, 'loose.txt', 'loose', gone._id);
    const inOld = await upload(me.browser, 'b.txt', 'b', old._id);
    await me.browser.patch('/folder-service/trash', { id: old._id });

    const at = await moment();

    // Trashed on its own first, then its folder: both come back, the file into its folder.
    await me.browser.patch('/file-service/trash', { id: loose._id });
    const late = await upload(me.browser, 'late.txt', 'late', gone._id);
    await me.browser.patch('/folder-service/trash', { id: gone._id });

    const answer = await restoreAsOf(me.browser, top._id, at);
    expect(answer.statusCode, answer.body).toBe(200);
    // Gone, a.txt and loose.txt; late.txt came back with its folder and went to the trash again.
    expect(answer.json<RestoreAsOfResultDto>()).toEqual({ ...ZERO, restoredFromTrash: 3 });
    const info = async (id: string) => (await me.browser.get(`/file-service/info/${id}`)).json<FileDto>();
    expect((await info(inGone._id)).metadata.parent).toBe(gone._id);
    expect((await info(loose._id)).metadata.parent).toBe(gone._id);
    const rows = await filesOf(me.id);
    const trashedNames = rows.filter((f) => f.trashedAt !== null).map((f) => f.filename);
    expect(trashedNames.sort()).toEqual([inOld.filename, late.filename].sort());
    const folder = await t.app.database.db.selectFrom('folder').select(['id', 'trashedAt']).where('ownerId', '=', me.id).execute();
    expect(folder.find((f) => f.id === gone._id)!.trashedAt).toBeNull();
    expect(folder.find((f) => f.id === old._id)!.trashedAt).not.toBeNull();

    expect((await restoreAsOf(me.browser, top._id, at)).json<RestoreAsOfResultDto>()).toEqual(ZERO);
  });

  it('a file whose content of then retention let go is left as it is, not taken further back', async () => {
    const me = await account();
    const file = await upload(me.browser, 'thin.txt', 'first');
    expect((await me.dav.put('/dav/thin.txt', 'second')).status).toBe(204);
    const at = await moment();
    expect((await me.dav.put('/dav/thin.txt', 'third')).status).toBe(204);
    // Retention let the version of `at` ('second') go; 'first' is older than `at` and stays.
    const second = sha256('second');
    await t.app.database.db.deleteFrom('fileVersion').where('fileId', '=', file._id).where('sha256', '=', second).execute();
    expect((await restoreAsOf(me.browser, '/', at)).json<RestoreAsOfResultDto>()).toEqual({ ...ZERO, notRecoverable: 1 });
    expect((await me.browser.get(`/file-service/download/${file._id}`)).body).toBe('third');
  });

  it('the same time restored again after newer changes gives the same content back; a time in between gives its own', async () => {
    const me = await account();
    const file = await upload(me.browser, 'again.txt', 'one');
    const at = await moment();
    expect((await me.dav.put('/dav/again.txt', 'two')).status).toBe(204);
    const between = await moment();
    expect((await restoreAsOf(me.browser, '/', at)).json<RestoreAsOfResultDto>()).toEqual({ ...ZERO, revertedFiles: 1 });
    expect((await me.dav.put('/dav/again.txt', 'three')).status).toBe(204);
    const body = async () => (await me.browser.get(`/file-service/download/${file._id}`)).body;

    expect((await restoreAsOf(me.browser, '/', at)).json<RestoreAsOfResultDto>()).toEqual({ ...ZERO, revertedFiles: 1 });
    expect(await body()).toBe('one');
    expect((await restoreAsOf(me.browser, '/', at)).json<RestoreAsOfResultDto>()).toEqual(ZERO);
    expect((await restoreAsOf(me.browser, '/', between)).json<RestoreAsOfResultDto>()).toEqual({ ...ZERO, revertedFiles: 1 });
    expect(await body()).toBe('two');
    expect((await restoreAsOf(me.browser, '/', at)).json<RestoreAsOfResultDto>()).toEqual({ ...ZERO, revertedFiles: 1 });
    expect(await body()).toBe('one');
    // Nothing was lost on the way: the other two contents are versions.
    const versions = await t.app.database.db.selectFrom('fileVersion').select('sha256').where('fileId', '=', file._id).execute();
    expect(versions.map((v) => v.sha256).sort()).toEqual([sha256('two'), sha256('three')].sort());
  });

  it('a time before a single version was restored from the details panel is found as it was', async () => {
    const me = await account();
    const file = await upload(me.browser, 'panel.txt', 'one');
    const at = await moment();
    expect((await me.dav.put('/dav/panel.txt', 'two')).status).toBe(204);
    const between = await moment();
    const [one] = (await me.browser.get(`/file-service/versions/${file._id}`)).json<FileVersionListDto>().versions;
    expect((await me.browser.post(`/file-service/versions/${file._id}/${one!.id}/restore`, {})).statusCode).toBe(200);

    // 'one' is the file's content again: at `at` it already was, so nothing changes.
    expect((await restoreAsOf(me.browser, '/', at)).json<RestoreAsOfResultDto>()).toEqual(ZERO);
    expect((await restoreAsOf(me.browser, '/', between)).json<RestoreAsOfResultDto>()).toEqual({ ...ZERO, revertedFiles: 1 });
    expect((await me.browser.get(`/file-service/download/${file._id}`)).body).toBe('two');
  });

  describe('bad input', () => {
    let me: Account;
    let other: Account;
    let folderId: string;
    const now = () => new Date().toISOString();

    beforeAll(async () => {
      me = await account();
      other = await account();
      folderId = (await createFolder(me.browser, 'Mine'))._id;
    });

    it.each([
      ['no body', undefined],
      ['no time', { id: '/' }],
      ['no folder', { at: new Date().toISOString() }],
      ['a time that is no ISO date', { id: '/', at: 'yesterday' }],
      ['a date without its time', { id: '/', at: '2026-11-27' }],
      ['an impossible date', { id: '/', at: '2026-02-30T10:00:00Z' }],
      ['a number', { id: '/', at: 1764000000000 }],
      ['an id of the wrong type', { id: 42, at: new Date().toISOString() }],
      ['an empty id', { id: '', at: new Date().toISOString() }],
      ['an overlong id', { id: 'x'.repeat(65), at: new Date().toISOString() }],
      ['a NUL in the id', { id: 'a\u0000b', at: new Date().toISOString() }],
    ])('%s: 400', async (_name, body) => {
      const answer = await me.browser.post('/folder-service/restore-as-of', body);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json<{ code: string }>().code).toBe('VALIDATION_FAILED');
    });

    it('a time in the future: 400, nothing done', async () => {
      const answer = await restoreAsOf(me.browser, '/', new Date(Date.now() + 86_400_000).toISOString());
      expect(answer.statusCode).toBe(400);
      expect(answer.json<{ code: string }>().code).toBe('VALIDATION_FAILED');
    });

    it('a time with an offset is that instant', async () => {
      const answer = await restoreAsOf(me.browser, folderId, '2026-01-01T12:00:00+02:00');
      expect(answer.statusCode, answer.body).toBe(200);
    });

    it("an unknown folder, a malformed id, another user's folder, a trashed folder: 404", async () => {
      const trashed = await createFolder(me.browser, 'Binned');
      await me.browser.patch('/folder-service/trash', { id: trashed._id });
      for (const id of ['nope', '../../etc', (await createFolder(other.browser, 'Theirs'))._id, trashed._id]) {
        const answer = await restoreAsOf(me.browser, id, now());
        expect(answer.statusCode, id).toBe(404);
        expect(answer.json<{ code: string }>().code).toBe('FOLDER_NOT_FOUND');
      }
    });

    it("'/' is the caller's own drive: another user's files are not touched", async () => {
      const theirs = await upload(other.browser, 'theirs.txt', 'theirs');
      const at = await moment();
      expect((await other.dav.put('/dav/theirs.txt', 'theirs, changed')).status).toBe(204);
      expect((await restoreAsOf(me.browser, '/', at)).json<RestoreAsOfResultDto>()).toEqual(ZERO);
      expect((await other.browser.get(`/file-service/download/${theirs._id}`)).body).toBe('theirs, changed');
    });

    it('signed out: 401; without the uuid header: 400', async () => {
      const anonymous = await new TestBrowser(t.app).post('/folder-service/restore-as-of', { id: '/', at: now() });
      expect(anonymous.statusCode).toBe(401);
      const noUuid = await me.browser.request('POST', '/folder-service/restore-as-of', { id: '/', at: now() }, { uuid: undefined });
      expect(noUuid.statusCode).toBe(400);
      expect(noUuid.json<{ code: string }>().code).toBe('MISSING_BROWSER_ID');
    });
  });
});
