import type { ActivityPageDto, AdminUserDto, AdminUserPage, TwoFactorSetupDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../helpers/test-browser.js';
import { expectError, login, startUsersApp, uniqueEmail, type UsersHarness } from '../users/support.js';
import { codeAt, enableTwoFactor, firstStep } from './support.js';

describe('two-factor in the admin area: required for everyone, reset for a locked-out account', () => {
  let h: UsersHarness;
  let admin: TestBrowser;
  beforeAll(async () => {
    h = await startUsersApp();
    admin = h.browser();
    await admin.signUp(uniqueEmail('admin'));
  });
  afterAll(() => h.close());

  async function user(): Promise<{ browser: TestBrowser; id: string; email: string; password: string }> {
    const browser = h.browser();
    return { browser, ...(await browser.signUp(uniqueEmail('member'))) };
  }
  const types = async (b: TestBrowser) => (await b.get('/user-service/activity')).json<ActivityPageDto>().events.map((e) => e.type);

  it('shows which accounts have two-factor on, and resets it for one, recorded in both logs', async () => {
    const me = await user();
    const { secret } = await enableTwoFactor(me.browser, h.clock);
    const page = (await admin.get(`/admin-service/users?search=${encodeURIComponent(me.email)}`)).json<AdminUserPage>();
    expect(page.users.map((u) => u.twoFactor)).toEqual([true]);
    expect((await admin.get(`/admin-service/users/${me.id}`)).json<AdminUserDto>().twoFactor).toBe(true);

    expectError(await me.browser.post(`/admin-service/users/${me.id}/two-factor-reset`), 403, 'ADMIN_ONLY');
    const reset = await admin.post(`/admin-service/users/${me.id}/two-factor-reset`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json<AdminUserDto>().twoFactor).toBe(false);
    expect((await login(h.browser(), me.email, me.password)).statusCode).toBe(200);
    expect(await types(admin)).toContain('admin-two-factor-reset');
    expect(await types(me.browser)).toContain('admin-two-factor-reset');
    expectError(await admin.post(`/admin-service/users/${me.id}/two-factor-reset`), 409, 'TWO_FACTOR_NOT_ENABLED');
    // The old secret is gone with it.
    expectError(
      await me.browser.post('/two-factor-service/disable', { code: codeAt(secret, h.clock.now()) }),
      409,
      'TWO_FACTOR_NOT_ENABLED',
    );
  });

  it.each([
    ['an unknown id', 'a'.repeat(25)],
    ['a malformed id', '%20'],
    ['a huge id', 'a'.repeat(5000)],
  ])('answers a reset for %s with 404 or 400', async (_name, id) => {
    const response = await admin.post(`/admin-service/users/${id}/two-factor-reset`);
    expect([400, 404]).toContain(response.statusCode);
  });

  describe('while required', () => {
    let known: { browser: TestBrowser; id: string; email: string; password: string };
    let withTwoFactor: { browser: TestBrowser; email: string; password: string; secret: string };
    beforeAll(async () => {
      known = await user();
      const other = await user();
      withTwoFactor = { ...other, secret: (await enableTwoFactor(other.browser, h.clock)).secret };
      const changed = await admin.patch('/admin-service/settings', { requireTwoFactor: true });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ requireTwoFactor: true });
    });
    afterAll(async () => {
      await admin.patch('/admin-service/settings', { requireTwoFactor: false });
    });

    it('refuses a right password from a browser that never signed in to the account: a stolen password enrols nothing', async () => {
      const thief = h.browser();
      thief.remoteAddress = '203.0.113.9';
      expectError(await login(thief, known.email, known.password), 403, 'TWO_FACTOR_REQUIRED');
      expect(thief.cookies.size).toBe(0);
    });

    it('has the owner set it up from a browser that signed in before, then signs in with the recovery codes shown once', async () => {
      const response = await login(known.browser, known.email, known.password);
      expect(response.statusCode, response.body).toBe(202);
      const { ticket, methods } = response.json<{ secondFactor: { ticket: string; methods: string[] } }>().secondFactor;
      expect(methods).toEqual(['setup']);
      // A setup ticket is no sign-in ticket, and opens nothing but the setup.
      expectError(await known.browser.post('/user-service/login/second-factor', { ticket, code: '123456' }), 401, 'INVALID_TICKET');
      expectError(await h.browser().post('/two-factor-service/setup-with-ticket', { ticket }), 401, 'INVALID_TICKET');
      const setup = await known.browser.post('/two-factor-service/setup-with-ticket', { ticket });
      expect(setup.statusCode, setup.body).toBe(200);
      const { secret } = setup.json<TwoFactorSetupDto>();
      expectError(
        await known.browser.post('/two-factor-service/enable-with-ticket', {
          ticket,
          code: '000000' === codeAt(secret, h.clock.now()) ? '111111' : '000000',
        }),
        401,
        'INVALID_CODE',
      );
      const browser = new TestBrowser(h.app, known.browser.browserId);
      const enabled = await browser.post('/two-factor-service/enable-with-ticket', { ticket, code: codeAt(secret, h.clock.now()) });
      expect(enabled.statusCode, enabled.body).toBe(200);
      expect(enabled.json()).toEqual({ user: expect.objectContaining({ _id: known.id }), recoveryCodes: expect.any(Array) });
      expect(enabled.json<{ recoveryCodes: string[] }>().recoveryCodes).toHaveLength(10);
      expect((await browser.get('/user-service/user')).statusCode).toBe(200);
      expectError(
        await browser.post('/two-factor-service/enable-with-ticket', { ticket, code: codeAt(secret, h.clock.now() + 30_000) }),
        401,
        'INVALID_TICKET',
      );
      expect((await browser.get('/two-factor-service/status')).json()).toEqual({ enabled: true, recoveryCodesLeft: 10, required: true });
      // From now on its sign-ins take the second step.
      h.clock.advance(30_000);
      const next = h.browser();
      const signedIn = await next.post('/user-service/login/second-factor', {
        ticket: await firstStep(next, known.email, known.password),
        code: codeAt(secret, h.clock.now()),
      });
      expect(signedIn.statusCode).toBe(200);
    });

    it('does not let an account turn it off, and asks the second step as before of one that has it', async () => {
      expectError(
        await withTwoFactor.browser.post('/two-factor-service/disable', { code: codeAt(withTwoFactor.secret, h.clock.now()) }),
        403,
        'TWO_FACTOR_REQUIRED',
      );
      const browser = h.browser();
      const response = await login(browser, withTwoFactor.email, withTwoFactor.password);
      expect(response.json<{ secondFactor: { methods: string[] } }>().secondFactor.methods).toEqual(['totp', 'recovery']);
    });

    it.each([
      ['a string', 'yes'],
      ['a number', 1],
      ['null', null],
    ])('refuses %s for the setting', async (_name, value) => {
      expectError(await admin.patch('/admin-service/settings', { requireTwoFactor: value }), 400, 'VALIDATION_FAILED');
    });
  });
});
