import type { FileDto, ShareLinkDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { startDavApp, type DavAccount, type DavHarness } from '../dav/dav-support.js';
import { accountOf, type SignedUp } from './support.js';

describe('admin area: disabling an account', () => {
  let h: DavHarness;
  let admin: SignedUp;
  let alice: DavAccount;
  /** Alice signed in on a second device, which the administrator never touches. */
  let elsewhere: TestBrowser;
  let file: FileDto;
  let fileLink: string;
  let shareLink: ShareLinkDto;

  beforeAll(async () => {
    h = await startDavApp();
    admin = await accountOf(h, 'admin');
    alice = await h.account();
    await h.app.database.db.updateTable('account').set({ role: 'user' }).where('id', '=', alice.id).execute();
    elsewhere = new TestBrowser(h.app);
    expect((await elsewhere.post('/user-service/login', { email: alice.email, password: alice.password })).statusCode).toBe(200);
    file = await upload(alice.browser, 'shared.txt', 'hello from alice');
    const made = await alice.browser.patch(`/file-service/make-public/${file._id}`);
    fileLink = `/file-service/public/download/${file._id}/${made.json<FileDto>().metadata.link}`;
    const created = await alice.browser.post('/share-service/links', { itemType: 'file', itemId: file._id });
    expect(created.statusCode, created.body).toBe(201);
    shareLink = created.json<ShareLinkDto>();
  });
  afterAll(() => h.close());

  const visitor = () => new TestBrowser(h.app);

  it('stops the account everywhere at once, and lets it back in when enabled', async () => {
    // Before: everything works.
    expect((await elsewhere.get('/file-service/list')).statusCode).toBe(200);
    expect((await alice.dav.propfind('/dav/', '0')).status).toBe(207);
    expect((await visitor().get(fileLink)).statusCode).toBe(200);
    expect((await visitor().get(`/share-service/public/${shareLink.token}`)).statusCode).toBe(200);

    const disabled = await admin.browser.patch(`/admin-service/users/${alice.id}`, { disabled: true });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toMatchObject({ status: 'disabled' });

    const api = await elsewhere.get('/file-service/list');
    expect(api.statusCode).toBe(401);
    expect((await elsewhere.post('/user-service/get-token')).statusCode).toBe(401);
    expect((await alice.dav.propfind('/dav/', '0')).status).toBe(401);
    expect((await alice.dav.put('/dav/new.txt', 'x')).status).toBe(401);
    expect((await visitor().get(fileLink)).statusCode).toBe(404);
    expect((await visitor().get(`/file-service/public/info/${file._id}/${fileLink.split('/').pop()}`)).statusCode).toBe(404);
    expect((await visitor().get(`/share-service/public/${shareLink.token}`)).statusCode).toBe(404);

    const wrong = await visitor().post('/user-service/login', { email: alice.email, password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    const right = await visitor().post('/user-service/login', { email: alice.email, password: alice.password });
    expect(right.statusCode).toBe(403);
    expect(right.json()).toMatchObject({ code: 'ACCOUNT_DISABLED', error: 'This account is disabled' });
    expect(right.cookies).toHaveLength(0);

    // Nothing was deleted.
    const row = await h.app.database.db.selectFrom('file').select('id').where('ownerId', '=', alice.id).execute();
    expect(row).toHaveLength(1);

    const enabled = await admin.browser.patch(`/admin-service/users/${alice.id}`, { disabled: false });
    expect(enabled.json()).toMatchObject({ status: 'active' });
    // Sessions stay ended: the user signs in again.
    expect((await elsewhere.get('/file-service/list')).statusCode).toBe(401);
    expect((await elsewhere.post('/user-service/login', { email: alice.email, password: alice.password })).statusCode).toBe(200);
    expect((await elsewhere.get('/file-service/list')).statusCode).toBe(200);
    expect((await alice.dav.propfind('/dav/', '0')).status).toBe(207);
    expect((await visitor().get(fileLink)).statusCode).toBe(200);
    expect((await visitor().get(`/share-service/public/${shareLink.token}`)).statusCode).toBe(200);

    const log = (await elsewhere.get('/user-service/activity')).json<{ events: { type: string }[] }>().events.map((e) => e.type);
    expect(log).toEqual(expect.arrayContaining(['admin-account-disabled', 'admin-account-enabled']));
  });

  it('stops an access token even when the sessions were not revoked', async () => {
    const bob = await h.account();
    await h.app.database.db.updateTable('account').set({ disabledAt: Date.now() }).where('id', '=', bob.id).execute();
    expect((await bob.browser.get('/file-service/list')).statusCode).toBe(401);
    await h.app.database.db.updateTable('account').set({ disabledAt: null }).where('id', '=', bob.id).execute();
    expect((await bob.browser.get('/file-service/list')).statusCode).toBe(200);
  });

  it('keeps the last active time to the minute: sign-in, refresh and WebDAV', async () => {
    const carol = await h.account();
    const lastActive = async () =>
      (await h.app.database.db.selectFrom('account').select('lastActiveAt').where('id', '=', carol.id).executeTakeFirstOrThrow())
        .lastActiveAt;
    const setLastActive = (at: number | null) =>
      h.app.database.db.updateTable('account').set({ lastActiveAt: at }).where('id', '=', carol.id).execute();
    await setLastActive(null);
    expect((await carol.browser.post('/user-service/login', { email: carol.email, password: carol.password })).statusCode).toBe(200);
    expect(await lastActive()).toBeGreaterThan(Date.now() - 10_000);
    const old = Date.now() - 120_000;
    await setLastActive(old);
    expect((await carol.browser.post('/user-service/get-token')).statusCode).toBe(200);
    expect(await lastActive()).toBeGreaterThan(old);
    await setLastActive(old);
    expect((await carol.dav.propfind('/dav/', '0')).status).toBe(207);
    const touched = (await lastActive())!;
    expect(touched).toBeGreaterThan(old);
    // Within the minute nothing is written again.
    expect((await carol.dav.propfind('/dav/', '0')).status).toBe(207);
    expect(await lastActive()).toBe(touched);
  });
});
