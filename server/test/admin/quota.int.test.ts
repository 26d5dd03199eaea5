import type { ServerSettingsDto, StorageUsageDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { startDavApp, type DavAccount, type DavHarness } from '../dav/dav-support.js';
import { accountOf, type SignedUp } from './support.js';

describe('admin area: per-account quotas and server settings', () => {
  let h: DavHarness;
  let admin: SignedUp;

  beforeAll(async () => {
    h = await startDavApp();
    admin = await accountOf(h, 'admin');
  });
  afterAll(() => h.close());

  const user = async (): Promise<DavAccount> => {
    const me = await h.account();
    await h.app.database.db.updateTable('account').set({ role: 'user' }).where('id', '=', me.id).execute();
    return me;
  };
  const multipart = async (me: DavAccount, name: string, bytes: number) => {
    const { body, contentType } = await multipartBody([
      { name: 'parent', value: '/' },
      { name: 'file', filename: name, data: Buffer.alloc(bytes, 1) },
    ]);
    return me.browser.request('POST', '/file-service/upload', body, { 'content-type': contentType });
  };
  const tusCreate = (me: DavAccount, length: number) =>
    fetch(`${h.origin}/file-service/tus`, {
      method: 'POST',
      headers: {
        uuid: me.browser.browserId,
        cookie: `access-token=${me.browser.cookies.get('access-token')!.value}`,
        'tus-resumable': '1.0.0',
        'upload-length': String(length),
        'upload-metadata': `filename ${Buffer.from('r.bin').toString('base64')}`,
      },
    });
  const setQuota = async (me: DavAccount, quotaBytes: number | null) =>
    expect((await admin.browser.patch(`/admin-service/users/${me.id}`, { quotaBytes })).statusCode).toBe(200);
  const settings = async (changes: Partial<ServerSettingsDto>) => {
    const response = await admin.browser.patch('/admin-service/settings', changes);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ServerSettingsDto>();
  };

  it('holds an account to its own quota on multipart, tus and WebDAV, with the usual answer', async () => {
    const me = await user();
    const other = await user();
    await setQuota(me, 1000);
    expect((await multipart(me, 'a.bin', 600)).statusCode).toBe(201);
    const over = await multipart(me, 'b.bin', 600);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 'QUOTA_EXCEEDED', error: 'This upload would go over your storage quota of 1000 bytes' });
    const tus = await tusCreate(me, 500);
    expect(tus.status).toBe(413);
    expect(await tus.json()).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    // WebDAV's own answer for a full quota (RFC 4331), as before per-account quotas.
    expect((await me.dav.put('/dav/c.bin', Buffer.alloc(500, 1))).status).toBe(507);
    expect((await tusCreate(me, 300)).status).toBe(201);
    // Another account has no quota.
    expect((await multipart(other, 'big.bin', 5000)).statusCode).toBe(201);
    // WebDAV reports the account's own quota.
    const quota = await me.dav.propfind(
      '/dav/',
      '0',
      '<D:propfind xmlns:D="DAV:"><D:prop><D:quota-available-bytes/></D:prop></D:propfind>',
    );
    expect(quota.text).toContain('<D:quota-available-bytes>100</D:quota-available-bytes>');
    // Back on the default (none): the same upload goes through.
    await setQuota(me, null);
    expect((await multipart(me, 'b.bin', 600)).statusCode).toBe(201);
  });

  it('applies the default quota from the settings at once, and an account quota above it', async () => {
    const me = await user();
    const roomy = await user();
    expect((await settings({ defaultQuotaBytes: 700 })).defaultQuotaBytes).toBe(700);
    await setQuota(roomy, 5000);
    expect((await multipart(me, 'x.bin', 800)).statusCode).toBe(413);
    expect((await me.dav.put('/dav/x.bin', Buffer.alloc(800, 1))).status).toBe(507);
    expect((await multipart(roomy, 'x.bin', 800)).statusCode).toBe(201);
    const listed = (await admin.browser.get(`/admin-service/users/${me.id}`)).json<{ quotaBytes: number; customQuota: boolean }>();
    expect(listed).toEqual(expect.objectContaining({ quotaBytes: 700, customQuota: false }));

    expect((await multipart(me, 'y.bin', 300)).statusCode).toBe(201);
    const usage = await me.browser.get('/user-service/storage');
    expect(usage.statusCode).toBe(200);
    expect(usage.json<StorageUsageDto>()).toEqual({ usedBytes: 300, quotaBytes: 700, bytes: { files: 300, trash: 0, versions: 0 } });
    const [file] = (await me.browser.get('/file-service/list')).json<{ _id: string }[]>();
    await me.browser.patch('/file-service/trash', { id: file!._id });
    expect((await me.browser.get('/user-service/storage')).json<StorageUsageDto>().bytes).toEqual({ files: 0, trash: 300, versions: 0 });
    expect((await new TestBrowser(h.app).get('/user-service/storage')).statusCode).toBe(401);

    await settings({ defaultQuotaBytes: null });
    expect((await multipart(me, 'x.bin', 800)).statusCode).toBe(201);
  });

  it('keeps the settings across a restart, and logs their change', async () => {
    const changed = await settings({ signup: 'invite', trashRetentionDays: 7, usersMayInvite: true, defaultQuotaBytes: 123_456 });
    expect(changed).toEqual({
      signup: 'invite',
      trashRetentionDays: 7,
      usersMayInvite: true,
      defaultQuotaBytes: 123_456,
      requireTwoFactor: false,
    });
    await h.app.close();
    h.app = await buildApp(h.config);
    const again = new TestBrowser(h.app);
    expect((await again.post('/user-service/login', { email: admin.email, password: admin.password })).statusCode).toBe(200);
    expect((await again.get('/admin-service/settings')).json()).toEqual(changed);
    const log = (await again.get('/user-service/activity')).json<{ events: { type: string }[] }>().events.map((e) => e.type);
    expect(log).toContain('admin-settings-changed');
    await again.patch('/admin-service/settings', { signup: 'open', defaultQuotaBytes: null, usersMayInvite: false });
  });
});

describe('trash retention from the settings', () => {
  it('purges with the retention an administrator set, read on each run', async () => {
    const { createTestApp } = await import('../helpers/test-app.js');
    const { TestClock } = await import('../users/support.js');
    const clock = new TestClock();
    const t = await createTestApp({ trashRetentionDays: 30, search: { enabled: false, embeddings: null } }, { clock });
    try {
      const admin = await accountOf(t, 'admin');
      const file = await upload(admin.browser, 'old.txt', 'old');
      await admin.browser.patch('/file-service/trash', { id: file._id });
      clock.advance(3 * 24 * 3_600_000);
      await t.app.background.schedule();
      await t.app.background.drainJobs();
      const count = async () => (await t.app.database.db.selectFrom('file').select('id').execute()).length;
      expect(await count()).toBe(1);
      expect((await admin.browser.post('/user-service/get-token')).statusCode).toBe(200);
      expect((await admin.browser.patch('/admin-service/settings', { trashRetentionDays: 2 })).statusCode).toBe(200);
      await t.app.background.schedule();
      await t.app.background.drainJobs();
      expect(await count()).toBe(0);
    } finally {
      await t.close();
    }
  });
});
