import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../helpers/drive.js';
import { hrefs, startDavApp, type DavAccount, type DavHarness } from '../dav/dav-support.js';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';
import { check, integrityOf } from '../integrity/support.js';

describe('versions: trashing keeps them, deleting forever deletes them and their bytes', () => {
  let h: DavHarness;
  let me: DavAccount;
  let disk: LocalDiskStore;

  beforeAll(async () => {
    h = await startDavApp();
    me = await h.account();
    disk = new LocalDiskStore((h.config.storage as { root: string }).root);
  });
  afterAll(() => h.close());

  const db = () => h.app.database.db;
  const fileId = async (name: string) =>
    (await db().selectFrom('file').select('id').where('ownerId', '=', me.id).where('filename', '=', name).executeTakeFirstOrThrow()).id;
  const versionKeys = async (id: string) =>
    (await db().selectFrom('fileVersion').select('storageKey').where('fileId', '=', id).execute()).map((r) => r.storageKey);
  const stored = async (keys: string[]) => {
    const present: string[] = [];
    for (const key of keys) if (await disk.stat(key)) present.push(key);
    return present;
  };

  /** A file saved `times` times over through WebDAV: `times` earlier contents kept. */
  async function savedOver(path: string, times: number): Promise<{ id: string; keys: string[] }> {
    for (let i = 0; i <= times; i++) expect((await me.dav.put(path, `${path} draft ${i}`)).status).toBeLessThan(300);
    const id = await fileId(path.split('/').at(-1)!);
    const keys = await versionKeys(id);
    expect(keys).toHaveLength(times);
    expect(await stored(keys)).toEqual(keys);
    return { id, keys };
  }

  it('keeps a trashed file’s versions, and deletes them with their bytes when the file is deleted for good', async () => {
    const { id, keys } = await savedOver('/dav/report.txt', 3);
    // WebDAV serves the current content only: one entry for the file, no version beside it.
    expect((await me.dav.get('/dav/report.txt')).text).toBe('/dav/report.txt draft 3');
    expect(hrefs((await me.dav.propfind('/dav/')).text).filter((href) => href.includes('report'))).toEqual(['/dav/report.txt']);
    expect((await me.browser.patch('/file-service/trash', { id })).statusCode).toBe(200);
    await h.app.background.drainJobs();
    expect(await versionKeys(id)).toEqual(expect.arrayContaining(keys));
    expect(await stored(keys)).toEqual(keys);

    expect((await me.browser.patch('/file-service/restore', { id })).statusCode).toBe(200);
    expect((await versionKeys(id)).sort()).toEqual([...keys].sort());

    expect((await me.browser.delete('/file-service/remove', { id })).statusCode).toBe(200);
    await h.app.background.drainJobs();
    expect(await versionKeys(id)).toEqual([]);
    expect(await stored(keys)).toEqual([]);
    expect((await check(integrityOf(h, { now: () => Date.now() }), { graceMs: 0 })).problems).toEqual([]);
  });

  it('deletes the versions of every file in a folder deleted for good, and their bytes', async () => {
    const top = await createFolder(me.browser, 'Reports');
    const inner = await createFolder(me.browser, 'Inner', top._id);
    const a = await savedOver('/dav/Reports/a.txt', 2);
    const b = await savedOver('/dav/Reports/Inner/b.txt', 1);
    expect(inner._id).toBeTruthy();
    // Trashed with its folder: the versions stay.
    expect((await me.browser.patch('/folder-service/trash', { id: top._id })).statusCode).toBe(200);
    await h.app.background.drainJobs();
    expect(await stored([...a.keys, ...b.keys])).toHaveLength(3);
    expect(await versionKeys(a.id)).toHaveLength(2);

    expect((await me.browser.delete('/folder-service/remove', { id: top._id })).statusCode).toBe(200);
    await h.app.background.drainJobs();
    expect(await db().selectFrom('fileVersion').select('id').where('ownerId', '=', me.id).execute()).toEqual([]);
    expect(await stored([...a.keys, ...b.keys])).toEqual([]);
    expect((await check(integrityOf(h, { now: () => Date.now() }), { graceMs: 0 })).problems).toEqual([]);
  });

  it('deletes versions when the trash is emptied by retention', async () => {
    const { id, keys } = await savedOver('/dav/old.txt', 2);
    expect((await me.browser.patch('/file-service/trash', { id })).statusCode).toBe(200);
    await db()
      .updateTable('file')
      .set({ trashedAt: Date.now() - 31 * 24 * 3_600_000 })
      .where('id', '=', id)
      .execute();
    await h.app.background.schedule();
    for (let i = 0; i < 5; i++) {
      await db().updateTable('job').set({ runAt: 0 }).execute();
      if ((await h.app.background.drainJobs()) === 0) break;
    }
    expect(await db().selectFrom('file').select('id').where('id', '=', id).execute()).toEqual([]);
    expect(await versionKeys(id)).toEqual([]);
    expect(await stored(keys)).toEqual([]);
  });
});
