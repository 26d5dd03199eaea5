import type { AdminUserDto, AdminUserPage, UserDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { accountOf, type SignedUp } from './support.js';

describe('admin area: accounts', () => {
  let t: TestApp;
  let admin: SignedUp;
  let alice: SignedUp;
  let bob: SignedUp;
  const secretNames = ['alice-diary-2026.txt', 'Alice Secret Folder', 'bob-taxes.pdf'];

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
    admin = await accountOf(t, 'admin', `root-${Date.now()}@example.com`);
    alice = await accountOf(t, 'user', `Alice.${Date.now()}@Example.com`);
    bob = await accountOf(t, 'user', `bob_${Date.now()}@example.com`);
    const folder = await createFolder(alice.browser, secretNames[1]!);
    await upload(alice.browser, secretNames[0]!, 'a'.repeat(300), folder._id);
    await upload(alice.browser, 'two.txt', 'b'.repeat(200));
    await upload(bob.browser, secretNames[2]!, 'c'.repeat(50));
  });
  afterAll(() => t.close());

  const list = async (query = '') => {
    const response = await admin.browser.get(`/admin-service/users${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AdminUserPage>();
  };

  it('lists accounts with counts and sizes, searched and sorted, a page at a time', async () => {
    const page = await list();
    expect(page.total).toBe(3);
    expect(page).toMatchObject({ offset: 0, limit: 50 });
    const a = page.users.find((u) => u.id === alice.id)!;
    expect(a).toMatchObject({ email: alice.email, role: 'user', status: 'active', files: 2, usedBytes: 500, quotaBytes: null });
    expect(a).toMatchObject({ customQuota: false, twoFactor: false });
    expect(page.users.find((u) => u.id === bob.id)).toMatchObject({ files: 1, usedBytes: 50 });
    expect(page.users.find((u) => u.id === admin.id)).toMatchObject({ files: 0, usedBytes: 0, role: 'admin' });

    expect((await list('?search=ALICE')).users.map((u) => u.id)).toEqual([alice.id]);
    // `_` and `%` match only themselves.
    expect((await list('?search=bob_')).users.map((u) => u.id)).toEqual([bob.id]);
    expect((await list('?search=%25')).users).toEqual([]);
    expect((await list('?search=_')).users.map((u) => u.id)).toEqual([bob.id]);

    expect((await list('?sort=usedBytes&order=desc')).users.map((u) => u.id)).toEqual([alice.id, bob.id, admin.id]);
    expect((await list('?sort=files&order=asc')).users.map((u) => u.id)).toEqual([admin.id, bob.id, alice.id]);
    const byEmail = (await list('?sort=email')).users.map((u) => u.email.toLowerCase());
    expect(byEmail).toEqual([...byEmail].sort());
    const paged = await list('?sort=usedBytes&order=desc&offset=1&limit=1');
    expect(paged).toMatchObject({ total: 3, offset: 1, limit: 1 });
    expect(paged.users.map((u) => u.id)).toEqual([bob.id]);
    expect((await list('?sort=lastActiveAt&order=desc')).users).toHaveLength(3);
  });

  it('answers one account, and 404 for an unknown one', async () => {
    const one = await admin.browser.get(`/admin-service/users/${alice.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json<AdminUserDto>()).toMatchObject({ id: alice.id, files: 2, usedBytes: 500 });
    const unknown = await admin.browser.get('/admin-service/users/no-such-account');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'USER_NOT_FOUND' });
  });

  it('refuses every admin call to an account that is not an administrator, and to nobody signed in', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/admin-service/users'],
      ['GET', `/admin-service/users/${bob.id}`],
      ['PATCH', `/admin-service/users/${bob.id}`, { disabled: true }],
      ['DELETE', `/admin-service/users/${bob.id}`, { confirmEmail: bob.email }],
      ['POST', `/admin-service/users/${bob.id}/password-reset`],
      ['GET', '/admin-service/settings'],
      ['PATCH', '/admin-service/settings', { signup: 'closed' }],
      ['GET', '/admin-service/overview'],
    ];
    const anonymous = new TestBrowser(t.app);
    for (const [method, url, body] of calls) {
      const refused = await alice.browser.request(method as 'GET', url, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'ADMIN_ONLY', error: 'Only an administrator can do this' });
      expect((await anonymous.request(method as 'GET', url, body)).statusCode).toBe(401);
    }
    expect((await alice.browser.get(`/admin-service/users/${bob.id}`)).statusCode).toBe(403);
    expect(
      (await t.app.database.db.selectFrom('account').select('disabledAt').where('id', '=', bob.id).executeTakeFirstOrThrow()).disabledAt,
    ).toBeNull();
  });

  it('refuses bad input with 400', async () => {
    const bad = [
      '/admin-service/users?search=' + 'x'.repeat(400),
      '/admin-service/users?sort=password',
      '/admin-service/users?order=sideways',
      '/admin-service/users?limit=0',
      '/admin-service/users?limit=201',
      '/admin-service/users?limit=ten',
      '/admin-service/users?offset=-1',
      '/admin-service/users/' + 'x'.repeat(65),
    ];
    for (const url of bad) {
      const response = await admin.browser.get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    const patches: unknown[] = [
      { quotaBytes: -1 },
      { quotaBytes: '1000' },
      { quotaBytes: 1.5 },
      { disabled: 'yes' },
      { role: 'owner' },
      { nickname: 'x' },
      [],
    ];
    for (const body of patches) {
      const response = await admin.browser.patch(`/admin-service/users/${bob.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await admin.browser.patch('/admin-service/users/nobody', { quotaBytes: 5 })).statusCode).toBe(404);
    const settings: unknown[] = [
      { signup: 'sometimes' },
      { trashRetentionDays: -1 },
      { trashRetentionDays: 4000 },
      { defaultQuotaBytes: '5' },
      { usersMayInvite: 1 },
      { theme: 'dark' },
    ];
    for (const body of settings)
      expect((await admin.browser.patch('/admin-service/settings', body)).statusCode, JSON.stringify(body)).toBe(400);
    expect((await admin.browser.delete(`/admin-service/users/${bob.id}`, { confirmEmail: 42 })).statusCode).toBe(400);
    expect((await admin.browser.delete(`/admin-service/users/${bob.id}`, {})).statusCode).toBe(400);
  });

  it('sets and clears an account quota, grants and revokes the role, and the user answer shows the role', async () => {
    const set = await admin.browser.patch(`/admin-service/users/${bob.id}`, { quotaBytes: 5000 });
    expect(set.json<AdminUserDto>()).toMatchObject({ quotaBytes: 5000, customQuota: true });
    const cleared = await admin.browser.patch(`/admin-service/users/${bob.id}`, { quotaBytes: null });
    expect(cleared.json<AdminUserDto>()).toMatchObject({ quotaBytes: null, customQuota: false });

    expect((await bob.browser.get('/user-service/user')).json<UserDto>().role).toBe('user');
    const granted = await admin.browser.patch(`/admin-service/users/${bob.id}`, { role: 'admin' });
    expect(granted.json<AdminUserDto>().role).toBe('admin');
    expect((await bob.browser.get('/user-service/user')).json<UserDto>().role).toBe('admin');
    expect((await bob.browser.get('/user-service/user-detailed')).json<UserDto>().role).toBe('admin');
    expect((await bob.browser.get('/admin-service/overview')).statusCode).toBe(200);
    await admin.browser.patch(`/admin-service/users/${bob.id}`, { role: 'user' });
    expect((await bob.browser.get('/admin-service/overview')).statusCode).toBe(403);
    expect((await bob.browser.get('/user-service/user')).json<UserDto>().role).toBe('user');

    const events = (await admin.browser.get('/user-service/activity')).json<{ events: { type: string }[] }>().events.map((e) => e.type);
    expect(events).toEqual(expect.arrayContaining(['admin-quota-changed', 'admin-role-changed']));
    const own = (await bob.browser.get('/user-service/activity')).json<{ events: { type: string }[] }>().events.map((e) => e.type);
    expect(own).toEqual(expect.arrayContaining(['admin-quota-changed', 'admin-role-changed']));
  });

  it('keeps the last active administrator: no self-demotion, no self-disabling, no self-deletion', async () => {
    const demote = await admin.browser.patch(`/admin-service/users/${admin.id}`, { role: 'user' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({ code: 'LAST_ADMIN' });
    expect((await admin.browser.patch(`/admin-service/users/${admin.id}`, { disabled: true })).json()).toMatchObject({
      code: 'LAST_ADMIN',
    });
    const self = await admin.browser.delete(`/admin-service/users/${admin.id}`, { confirmEmail: admin.email });
    expect(self.statusCode).toBe(409);
    // Another administrator still cannot take away the last active one.
    const other = await accountOf(t, 'admin');
    expect((await admin.browser.patch(`/admin-service/users/${other.id}`, { disabled: true })).statusCode).toBe(200);
    const last = await other.browser.patch(`/admin-service/users/${admin.id}`, { role: 'user' });
    expect(last.statusCode).toBe(401);
    await admin.browser.patch(`/admin-service/users/${other.id}`, { disabled: false });
    await other.browser.post('/user-service/login', { email: other.email, password: other.password });
    // With two active administrators, one may demote the other, then the last one is kept.
    expect((await other.browser.patch(`/admin-service/users/${admin.id}`, { role: 'user' })).statusCode).toBe(200);
    expect((await admin.browser.patch(`/admin-service/users/${other.id}`, { role: 'user' })).statusCode).toBe(403);
    const kept = await other.browser.patch(`/admin-service/users/${other.id}`, { role: 'user' });
    expect(kept.json()).toMatchObject({ code: 'LAST_ADMIN' });
    await other.browser.patch(`/admin-service/users/${admin.id}`, { role: 'admin' });
    await admin.browser.delete(`/admin-service/users/${other.id}`, { confirmEmail: other.email.toUpperCase() });
  });

  it('starts a password reset: the link is answered when there is no e-mail, and a second within a minute is refused', async () => {
    const reset = await admin.browser.post(`/admin-service/users/${bob.id}/password-reset`);
    expect(reset.statusCode).toBe(200);
    const { emailSent, link } = reset.json<{ emailSent: boolean; link: string }>();
    expect(emailSent).toBe(false);
    expect(link).toMatch(/^http:\/\/localhost:3000\/reset-password\/[A-Za-z0-9_-]+$/);
    const token = link.split('/').pop()!;
    const used = await new TestBrowser(t.app).patch('/user-service/reset-password', { passwordToken: token, password: 'a new password' });
    expect(used.statusCode, used.body).toBe(200);
    expect((await new TestBrowser(t.app).post('/user-service/login', { email: bob.email, password: 'a new password' })).statusCode).toBe(
      200,
    );
    const again = await admin.browser.post(`/admin-service/users/${bob.id}/password-reset`);
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({ code: 'COOLDOWN' });
    expect((await admin.browser.post('/admin-service/users/nobody/password-reset')).statusCode).toBe(404);
  });

  it('answers the overview and the settings', async () => {
    const overview = await admin.browser.get('/admin-service/overview');
    expect(overview.statusCode).toBe(200);
    const o = overview.json<Record<string, unknown>>();
    expect(o).toMatchObject({ files: 3, folders: 1, bytes: { files: 550, trash: 0, versions: 0 }, scrub: null });
    expect((o.accounts as { admins: number }).admins).toBeGreaterThanOrEqual(1);
    expect((o.disk as { freeBytes: number }).freeBytes).toBeGreaterThan(0);
    expect(o.version).toMatch(/^\d+\.\d+\.\d+/);
    const settings = await admin.browser.get('/admin-service/settings');
    expect(settings.json()).toEqual({
      signup: 'open',
      defaultQuotaBytes: null,
      trashRetentionDays: 30,
      usersMayInvite: false,
      requireTwoFactor: false,
    });
  });

  it('never shows an administrator the names of what another account stores', async () => {
    const answers = [
      await admin.browser.get('/admin-service/users'),
      await admin.browser.get('/admin-service/users?sort=files&order=desc'),
      await admin.browser.get(`/admin-service/users/${alice.id}`),
      await admin.browser.patch(`/admin-service/users/${alice.id}`, { quotaBytes: 10_000 }),
      await admin.browser.get('/admin-service/overview'),
      await admin.browser.get('/admin-service/settings'),
      await admin.browser.get('/user-service/activity'),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      for (const name of secretNames) expect(answer.body).not.toContain(name);
    }
  });
});
