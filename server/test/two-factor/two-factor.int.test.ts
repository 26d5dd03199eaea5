import type { ActivityPageDto, TwoFactorSetupDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../helpers/test-browser.js';
import { expectError, login, MINUTE, snapshotTables, startUsersApp, uniqueEmail, type UsersHarness } from '../users/support.js';
import { codeAt, enableTwoFactor, firstStep } from './support.js';

describe('two-factor codes (TOTP)', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  async function signedUp(): Promise<{ browser: TestBrowser; id: string; email: string; password: string }> {
    const browser = h.browser();
    return { browser, ...(await browser.signUp(uniqueEmail('tf'))) };
  }

  async function eventTypes(browser: TestBrowser): Promise<string[]> {
    return (await browser.get('/user-service/activity')).json<ActivityPageDto>().events.map((e) => e.type);
  }

  it('is turned on by a setup confirmed with a first code, with ten recovery codes kept only as hashes', async () => {
    const me = await signedUp();
    expect((await me.browser.get('/two-factor-service/status')).json()).toEqual({ enabled: false, recoveryCodesLeft: 0, required: false });
    const setup = await me.browser.post('/two-factor-service/setup');
    expect(setup.headers['cache-control']).toBe('no-store');
    const { secret, otpauthUrl } = setup.json<TwoFactorSetupDto>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    // Pending: a password still signs in alone.
    expect((await login(h.browser(), me.email, me.password)).statusCode).toBe(200);
    expect((await me.browser.get('/two-factor-service/status')).json()).toMatchObject({ enabled: false });

    expectError(await me.browser.post('/two-factor-service/enable', { code: wrongCodeFor(secret, h.clock.now()) }), 401, 'INVALID_CODE');
    const enabled = await me.browser.post('/two-factor-service/enable', { code: codeAt(secret, h.clock.now()) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const { recoveryCodes } = enabled.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await me.browser.get('/two-factor-service/status')).json()).toEqual({ enabled: true, recoveryCodesLeft: 10, required: false });

    const db = h.app.database.db;
    const stored = JSON.stringify([
      await db.selectFrom('twoFactor').selectAll().where('accountId', '=', me.id).execute(),
      await db.selectFrom('recoveryCode').selectAll().where('accountId', '=', me.id).execute(),
    ]);
    expect(stored).not.toContain(secret);
    for (const code of recoveryCodes) expect(stored).not.toContain(code.replace('-', ''));
    expect(await eventTypes(me.browser)).toContain('two-factor-enabled');
    expectError(await me.browser.post('/two-factor-service/setup'), 409, 'TWO_FACTOR_ENABLED');
  });

  it('asks a signed-in password for a second step: 202 with a ticket and no cookie, then a code signs in', async () => {
    const me = await signedUp();
    const { secret } = await enableTwoFactor(me.browser, h.clock);
    const browser = h.browser();
    const first = await login(browser, me.email, me.password);
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ secondFactor: { ticket: expect.any(String), methods: ['totp', 'recovery'] } });
    expect(browser.cookies.size).toBe(0);
    expectError(await browser.get('/user-service/user'), 401);
    const { ticket } = first.json<{ secondFactor: { ticket: string } }>().secondFactor;

    // A wrong code leaves the ticket usable.
    expectError(
      await browser.post('/user-service/login/second-factor', { ticket, code: wrongCodeFor(secret, h.clock.now()) }),
      401,
      'INVALID_CODE',
    );
    const second = await browser.post('/user-service/login/second-factor', { ticket, code: codeAt(secret, h.clock.now()) });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toEqual({ user: { _id: me.id, email: me.email, emailVerified: true, role: expect.any(String) } });
    expect([...browser.cookies.keys()].sort()).toEqual(['access-token', 'refresh-token']);
    expect((await browser.get('/user-service/user')).json()).toMatchObject({ _id: me.id });
    expect(await eventTypes(browser)).toEqual(expect.arrayContaining(['sign-in', 'sign-in-second-factor-failed']));

    // Single-use.
    expectError(
      await browser.post('/user-service/login/second-factor', { ticket, code: codeAt(secret, h.clock.now() + 30_000) }),
      401,
      'INVALID_TICKET',
    );
  });

  it('never takes a code twice, nor an older or expired one', async () => {
    const me = await signedUp();
    const { secret } = await enableTwoFactor(me.browser, h.clock);
    const now = h.clock.now();
    const browser = h.browser();
    const used = codeAt(secret, now);
    expect(
      (await browser.post('/user-service/login/second-factor', { ticket: await firstStep(browser, me.email, me.password), code: used }))
        .statusCode,
    ).toBe(200);

    const again = h.browser();
    const ticket = await firstStep(again, me.email, me.password);
    expectError(await again.post('/user-service/login/second-factor', { ticket, code: used }), 401, 'INVALID_CODE');
    // The step before the one used, though inside the ±30 s window.
    expectError(await again.post('/user-service/login/second-factor', { ticket, code: codeAt(secret, now - 30_000) }), 401, 'INVALID_CODE');
    // Two steps away: outside the window.
    h.clock.advance(90_000);
    expectError(await again.post('/user-service/login/second-factor', { ticket, code: codeAt(secret, now) }), 401, 'INVALID_CODE');
    expectError(
      await again.post('/user-service/login/second-factor', { ticket, code: codeAt(secret, h.clock.now() + 90_000) }),
      401,
      'INVALID_CODE',
    );
    // One step behind the clock (a phone a little slow) is taken.
    expect(
      (await again.post('/user-service/login/second-factor', { ticket, code: codeAt(secret, h.clock.now() - 30_000) })).statusCode,
    ).toBe(200);
  });

  it('refuses a ticket that is unknown, expired, or of another browser', async () => {
    const me = await signedUp();
    const { secret } = await enableTwoFactor(me.browser, h.clock);
    const browser = h.browser();
    const ticket = await firstStep(browser, me.email, me.password);
    const code = codeAt(secret, h.clock.now());
    expectError(await h.browser().post('/user-service/login/second-factor', { ticket, code }), 401, 'INVALID_TICKET');
    expectError(await browser.post('/user-service/login/second-factor', { ticket: 'A'.repeat(43), code }), 401, 'INVALID_TICKET');
    h.clock.advance(5 * MINUTE + 1);
    expectError(
      await browser.post('/user-service/login/second-factor', { ticket, code: codeAt(secret, h.clock.now()) }),
      401,
      'INVALID_TICKET',
    );
    expect(browser.cookies.size).toBe(0);
  });

  it('takes each recovery code once, instead of a code', async () => {
    const me = await signedUp();
    const { recoveryCodes } = await enableTwoFactor(me.browser, h.clock);
    const browser = h.browser();
    const [code] = recoveryCodes;
    const typed = ` ${code!.toUpperCase().replace('-', ' ')} `;
    const signedIn = await browser.post('/user-service/login/second-factor', {
      ticket: await firstStep(browser, me.email, me.password),
      recoveryCode: typed,
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const other = h.browser();
    expectError(
      await other.post('/user-service/login/second-factor', { ticket: await firstStep(other, me.email, me.password), recoveryCode: code }),
      401,
      'INVALID_CODE',
    );
    expect((await me.browser.get('/two-factor-service/status')).json()).toMatchObject({ recoveryCodesLeft: 9 });
    expect(await eventTypes(me.browser)).toContain('recovery-code-used');
  });

  it('makes ten new recovery codes for a code, and the old ones stop working', async () => {
    const me = await signedUp();
    const { secret, recoveryCodes: old } = await enableTwoFactor(me.browser, h.clock);
    expectError(
      await me.browser.post('/two-factor-service/recovery-codes', { code: wrongCodeFor(secret, h.clock.now()) }),
      401,
      'INVALID_CODE',
    );
    const renewed = await me.browser.post('/two-factor-service/recovery-codes', { code: codeAt(secret, h.clock.now()) });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh = renewed.json<{ recoveryCodes: string[] }>().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => old.includes(c))).toEqual([]);
    const browser = h.browser();
    const ticket = await firstStep(browser, me.email, me.password);
    expectError(await browser.post('/user-service/login/second-factor', { ticket, recoveryCode: old[0] }), 401, 'INVALID_CODE');
    expect((await browser.post('/user-service/login/second-factor', { ticket, recoveryCode: fresh[0] })).statusCode).toBe(200);
    expect(await eventTypes(me.browser)).toContain('recovery-codes-made');
  });

  it('is turned off by a code or a recovery code, and the password alone signs in again', async () => {
    const me = await signedUp();
    const { secret, recoveryCodes } = await enableTwoFactor(me.browser, h.clock);
    expectError(await me.browser.post('/two-factor-service/disable', { code: wrongCodeFor(secret, h.clock.now()) }), 401, 'INVALID_CODE');
    expectError(await me.browser.post('/two-factor-service/disable', { code: 'aaaaa-bbbbb' }), 401, 'INVALID_CODE');
    expect((await me.browser.post('/two-factor-service/disable', { code: recoveryCodes[3] })).statusCode).toBe(200);
    expect((await me.browser.get('/two-factor-service/status')).json()).toEqual({ enabled: false, recoveryCodesLeft: 0, required: false });
    expect((await login(h.browser(), me.email, me.password)).statusCode).toBe(200);
    expect(await eventTypes(me.browser)).toContain('two-factor-disabled');
    expectError(
      await me.browser.post('/two-factor-service/disable', { code: codeAt(secret, h.clock.now()) }),
      409,
      'TWO_FACTOR_NOT_ENABLED',
    );

    const { secret: again } = await enableTwoFactor(me.browser, h.clock);
    expect((await me.browser.post('/two-factor-service/disable', { code: codeAt(again, h.clock.now()) })).statusCode).toBe(200);
  });

  it('throttles wrong codes like passwords: ten per account and address, then even the right one waits', async () => {
    const me = await signedUp();
    const { secret } = await enableTwoFactor(me.browser, h.clock);
    const browser = h.browser();
    const ticket = await firstStep(browser, me.email, me.password);
    for (let i = 0; i < 10; i++)
      expectError(
        await browser.post('/user-service/login/second-factor', { ticket, code: wrongCodeFor(secret, h.clock.now()) }),
        401,
        'INVALID_CODE',
      );
    const refused = await browser.post('/user-service/login/second-factor', { ticket, code: codeAt(secret, h.clock.now()) });
    expectError(refused, 429, 'LOGIN_THROTTLED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Settings' own code checks count toward the same limit.
    expectError(
      await me.browser.post('/two-factor-service/recovery-codes', { code: codeAt(secret, h.clock.now()) }),
      429,
      'LOGIN_THROTTLED',
    );
    h.clock.advance(15 * MINUTE + 1);
    const later = h.browser();
    expect(
      (
        await later.post('/user-service/login/second-factor', {
          ticket: await firstStep(later, me.email, me.password),
          code: codeAt(secret, h.clock.now()),
        })
      ).statusCode,
    ).toBe(200);
  });

  it('leaves sign-in as it was for an account without two-factor', async () => {
    const me = await signedUp();
    const response = await login(h.browser(), me.email, me.password);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: { _id: me.id, email: me.email, emailVerified: true, role: expect.any(String) } });
    const browser = h.browser();
    expectError(await browser.post('/user-service/login/second-factor', { ticket: 'x'.repeat(43), code: '123456' }), 401, 'INVALID_TICKET');
  });

  it('still refuses a disabled account after the password, before any second step', async () => {
    const me = await signedUp();
    await enableTwoFactor(me.browser, h.clock);
    await h.app.database.db.updateTable('account').set({ disabledAt: h.clock.now() }).where('id', '=', me.id).execute();
    expectError(await login(h.browser(), me.email, me.password), 403, 'ACCOUNT_DISABLED');
  });

  describe('bad inputs', () => {
    let me: { browser: TestBrowser; email: string; password: string };
    let ticket: string;
    beforeAll(async () => {
      me = await signedUp();
      await enableTwoFactor(me.browser, h.clock);
      ticket = await firstStep(me.browser, me.email, me.password);
    });

    it.each([
      ['no body', undefined],
      ['an empty object', {}],
      ['no code', { ticket: 'abc' }],
      ['no ticket', { code: '123456' }],
      ['both a code and a recovery code', { ticket: 'abc', code: '123456', recoveryCode: 'abcde-fghjk' }],
      ['five digits', { ticket: 'abc', code: '12345' }],
      ['letters for the code', { ticket: 'abc', code: 'abcdef' }],
      ['a number for the code', { ticket: 'abc', code: 123456 }],
      ['an array for the ticket', { ticket: ['abc'], code: '123456' }],
      ['a huge ticket', { ticket: 'a'.repeat(100_000), code: '123456' }],
      ['a huge recovery code', { ticket: 'abc', recoveryCode: 'a'.repeat(100_000) }],
      ['a ticket with odd characters', { ticket: '../../etc', code: '123456' }],
      ['an unknown field', { ticket: 'abc', code: '123456', admin: true }],
    ])('second step answers 400 VALIDATION_FAILED for %s', async (_name, payload) => {
      const browser = h.browser();
      expectError(await browser.post('/user-service/login/second-factor', payload), 400, 'VALIDATION_FAILED');
      expect(browser.cookies.size).toBe(0);
    });

    it.each([
      ['/two-factor-service/enable', { code: '12 34 56' }],
      ['/two-factor-service/enable', { code: null }],
      ['/two-factor-service/recovery-codes', { code: 'x'.repeat(100_000) }],
      ['/two-factor-service/disable', { code: '' }],
      ['/two-factor-service/disable', { code: 'x'.repeat(33) }],
      ['/two-factor-service/disable', {}],
      ['/two-factor-service/setup-with-ticket', { ticket: '' }],
      ['/two-factor-service/enable-with-ticket', { ticket: 'abc', code: 'abc' }],
    ])('%s answers 400 VALIDATION_FAILED for %j', async (url, payload) => {
      const before = await snapshotTables(h.app);
      expectError(await me.browser.post(url, payload), 400, 'VALIDATION_FAILED');
      expect(await snapshotTables(h.app)).toEqual(before);
    });

    it('answers 401 to the signed-out on Settings routes', async () => {
      const out = h.browser();
      expectError(await out.get('/two-factor-service/status'), 401, 'UNAUTHENTICATED');
      expectError(await out.post('/two-factor-service/setup'), 401, 'UNAUTHENTICATED');
      expectError(await out.post('/two-factor-service/disable', { code: '123456' }), 401, 'UNAUTHENTICATED');
    });

    it('refuses a sign-in ticket where a setup ticket is asked for', async () => {
      expectError(await me.browser.post('/two-factor-service/setup-with-ticket', { ticket }), 401, 'INVALID_TICKET');
      expectError(await me.browser.post('/two-factor-service/enable-with-ticket', { ticket, code: '123456' }), 401, 'INVALID_TICKET');
    });
  });
});

/** A six-digit code that is none of the ones the window around `now` accepts. */
export function wrongCodeFor(secret: string, now: number): string {
  const valid = new Set([-1, 0, 1].map((d) => codeAt(secret, now + d * 30_000)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}
