import type { FileDto } from '@nimbus/common';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { LOCK_BODY, startDavApp, type DavAccount, type DavHarness } from '../dav/dav-support.js';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';
import { check, integrityOf } from '../integrity/support.js';
import { accountOf, rowsNaming, type SignedUp } from './support.js';

describe('admin area: deleting an account', () => {
  let h: DavHarness;
  let admin: SignedUp;
  let alice: DavAccount;
  let bob: DavAccount;
  let disk: LocalDiskStore;

  beforeAll(async () => {
    h = await startDavApp({ search: { enabled: true, embeddings: null } });
    admin = await accountOf(h, 'admin');
    [alice, bob] = [await h.account(), await h.account()];
    for (const a of [alice, bob]) await h.app.database.db.updateTable('account').set({ role: 'user' }).where('id', '=', a.id).execute();
    disk = new LocalDiskStore((h.config.storage as { root: string }).root);
  });
  afterAll(() => h.close());

  const storedKeys = async () => {
    const keys: string[] = [];
    for await (const o of disk.list()) keys.push(o.key);
    return keys;
  };

  /** Alice's drive with something of every kind the deletion must remove. */
  async function fillAlice(): Promise<void> {
    const top = await createFolder(alice.browser, 'Top');
    const inner = await createFolder(alice.browser, 'Inner', top._id);
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    await upload(alice.browser, 'photo.jpg', photo, inner._id);
    for (let i = 0; i < 12; i++) await upload(alice.browser, `note-${i}.txt`, `note ${i}`, i % 2 ? top._id : '/');
    const trashed = await upload(alice.browser, 'old.txt', 'trashed');
    expect((await alice.browser.patch('/file-service/trash', { id: trashed._id })).statusCode).toBe(200);
    const linked = await upload(alice.browser, 'linked.txt', 'linked');
    await alice.browser.patch(`/file-service/make-public/${linked._id}`);
    expect((await alice.browser.post('/share-service/links', { itemType: 'folder', itemId: top._id })).statusCode).toBe(201);
    // A resumable upload left unfinished, with one piece stored.
    const created = await fetch(`${h.origin}/file-service/tus`, {
      method: 'POST',
      headers: {
        uuid: alice.browser.browserId,
        cookie: `access-token=${alice.browser.cookies.get('access-token')!.value}`,
        'tus-resumable': '1.0.0',
        'upload-length': '100',
        'upload-metadata': `filename ${Buffer.from('half.bin').toString('base64')}`,
      },
    });
    expect(created.status).toBe(201);
    const piece = await fetch(`${h.origin}${new URL(created.headers.get('location')!, h.origin).pathname}`, {
      method: 'PATCH',
      headers: {
        uuid: alice.browser.browserId,
        cookie: `access-token=${alice.browser.cookies.get('access-token')!.value}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: Buffer.alloc(40, 7),
    });
    expect(piece.status).toBe(204);
    await alice.dav.put('/dav/props.txt', 'p');
    // Saved over twice: two earlier contents kept as versions.
    await alice.dav.put('/dav/notes.txt', 'first draft');
    await alice.dav.put('/dav/notes.txt', 'second draft');
    await alice.dav.put('/dav/notes.txt', 'final text');
    const props = await alice.dav.request('PROPPATCH', '/dav/props.txt', {
      body: '<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:color>blue</Z:color></D:prop></D:set></D:propertyupdate>',
    });
    expect(props.status).toBe(207);
    expect((await alice.dav.request('LOCK', '/dav/props.txt', { body: LOCK_BODY(), headers: { timeout: 'Second-600' } })).status).toBe(200);
    await drainAll();
  }

  /** Every job, those waiting for a later time (search indexing settles bursts first) included. */
  async function drainAll(): Promise<void> {
    const due = () => h.app.database.db.updateTable('job').set({ runAt: 0 }).execute();
    for (let i = 0; i < 10; i++) {
      await due();
      if ((await h.app.background.drainJobs()) === 0) return;
    }
  }

  /** Rows of versions and contents that name the account (beside those `rowsNaming` counts). */
  async function contentRowsNaming(accountId: string): Promise<Record<string, number>> {
    const db = h.app.database.db;
    const counts = {
      'file_version.owner_id': await db.selectFrom('fileVersion').select('id').where('ownerId', '=', accountId).execute(),
      'file_version.author_id': await db.selectFrom('fileVersion').select('id').where('authorId', '=', accountId).execute(),
      'file.content_author_id': await db.selectFrom('file').select('id').where('contentAuthorId', '=', accountId).execute(),
    };
    return Object.fromEntries(Object.entries(counts).flatMap(([k, rows]) => (rows.length > 0 ? [[k, rows.length]] : [])));
  }

  it('refuses a wrong confirmation, then removes the account, every row and every stored byte of it', async () => {
    const bobsFile: FileDto = await upload(bob.browser, 'bob.txt', 'bob stays');
    // A file of Bob's whose current content and one earlier content Alice stored (as an editor would).
    await bob.dav.put('/dav/shared.txt', 'by alice');
    await bob.dav.put('/dav/shared.txt', 'by alice again');
    const db = h.app.database.db;
    const shared = await db
      .selectFrom('file')
      .select('id')
      .where('ownerId', '=', bob.id)
      .where('filename', '=', 'shared.txt')
      .executeTakeFirstOrThrow();
    await db.updateTable('fileVersion').set({ authorId: alice.id }).where('fileId', '=', shared.id).execute();
    await db.updateTable('file').set({ contentAuthorId: alice.id }).where('id', '=', shared.id).execute();
    await fillAlice();
    expect(await contentRowsNaming(alice.id)).toEqual({
      'file_version.owner_id': 2,
      'file_version.author_id': 3,
      'file.content_author_id': 18,
    });
    const before = await rowsNaming(h, alice.id);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining([
        'account.id',
        'file.owner_id',
        'folder.owner_id',
        'file_media.owner_id',
        'tus_upload.owner_id',
        'dav_property.owner_id',
        'dav_lock.owner_id',
        'share_link.owner_id',
        'search_entry.owner_id',
        'session.account_id',
        'app_password.account_id',
      ]),
    );
    const keysBefore = await storedKeys();

    const wrong = await admin.browser.delete(`/admin-service/users/${alice.id}`, { confirmEmail: bob.email });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'CONFIRMATION_MISMATCH' });
    expect((await alice.browser.get('/file-service/list')).statusCode).toBe(200);
    expect((await admin.browser.delete('/admin-service/users/nobody', { confirmEmail: 'x@example.com' })).statusCode).toBe(404);

    const deleted = await admin.browser.delete(`/admin-service/users/${alice.id}`, { confirmEmail: ` ${alice.email.toUpperCase()} ` });
    expect(deleted.statusCode).toBe(202);
    expect(deleted.json()).toEqual({ message: expect.any(String) });
    // It stops at once, before the job has run.
    expect((await alice.browser.get('/file-service/list')).statusCode).toBe(401);
    expect((await admin.browser.get(`/admin-service/users/${alice.id}`)).statusCode).toBe(404);
    expect((await admin.browser.get('/admin-service/users')).json<{ total: number }>().total).toBe(2);

    await drainAll();
    expect(await rowsNaming(h, alice.id)).toEqual({});
    expect(await contentRowsNaming(alice.id)).toEqual({});
    const bobKeys = await db.selectFrom('file').select('storageKey').where('ownerId', '=', bob.id).execute();
    const bobVersionKeys = await db.selectFrom('fileVersion').select('storageKey').where('ownerId', '=', bob.id).execute();
    expect(bobVersionKeys).toHaveLength(1);
    const keysAfter = await storedKeys();
    expect(keysAfter.sort()).toEqual([...bobKeys, ...bobVersionKeys].map((r) => r.storageKey).sort());
    expect(keysBefore.length).toBeGreaterThan(keysAfter.length + 15);

    const report = await check(integrityOf(h, { now: () => Date.now() }), { graceMs: 0 });
    expect(report.problems).toEqual([]);
    expect((await bob.browser.get(`/file-service/info/${bobsFile._id}`)).statusCode).toBe(200);
    const adminLog = (await admin.browser.get('/user-service/activity')).json<{ events: { type: string }[] }>().events;
    expect(adminLog.map((e) => e.type)).toContain('admin-account-deleted');
  });

  it('finishes a deletion a stopped server left undone, at the next housekeeping', async () => {
    const carol = await h.account();
    await upload(carol.browser, 'carol.txt', 'carol');
    // Marked deleted with no job queued: what a crash right after the mark leaves.
    await h.app.database.db
      .updateTable('account')
      .set({ deletedAt: Date.now(), disabledAt: Date.now() })
      .where('id', '=', carol.id)
      .execute();
    await h.app.background.schedule();
    await drainAll();
    expect(await rowsNaming(h, carol.id)).toEqual({});
  });

  it('refuses deleting oneself or the last administrator', async () => {
    const self = await admin.browser.delete(`/admin-service/users/${admin.id}`, { confirmEmail: admin.email });
    expect(self.statusCode).toBe(409);
    expect(self.json()).toMatchObject({ code: 'LAST_ADMIN' });
  });
});
