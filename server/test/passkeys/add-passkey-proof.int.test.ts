import { LIMITS, type PasskeyDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../helpers/test-browser.js';
import { codeAt, enableTwoFactor } from '../two-factor/support.js';
import { expectError, startUsersApp, uniqueEmail, type UsersHarness } from '../users/support.js';
import { SoftwareAuthenticator } from './software-authenticator.js';

const OPTIONS = '/passkey-service/registration/options';
const REGISTER = '/passkey-service/registration/verify';
const LIST = '/passkey-service/passkeys';

/** A session alone (perhaps from a stolen password) adds no passkey: the caller proves a factor it knows. */
describe('adding a passkey asks for the password, or a two-factor code', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  async function signedIn(): Promise<{ browser: TestBrowser; account: { id: string; email: string; password: string } }> {
    const browser = h.browser();
    return { browser, account: await browser.signUp(uniqueEmail()) };
  }

  async function challengesOf(accountId: string): Promise<unknown[]> {
    return h.app.database.db.selectFrom('webauthnChallenge').select('challengeHash').where('accountId', '=', accountId).execute();
  }

  /** Options for the proof, then the authenticator's answer: the passkey added, or the options' refusal. */
  async function addWith(browser: TestBrowser, accountId: string, proof: object | undefined) {
    const options = await browser.post(OPTIONS, proof);
    if (options.statusCode !== 200) return options;
    const { challenge } = options.json<{ challenge: string }>();
    return browser.post(REGISTER, { name: 'Laptop', response: new SoftwareAuthenticator(accountId).register(challenge) });
  }

  it('adds a passkey for the right password', async () => {
    const { browser, account } = await signedIn();
    const added = await addWith(browser, account.id, { password: account.password });
    expect(added.statusCode, added.body).toBe(201);
    expect((await browser.get(LIST)).json<PasskeyDto[]>().map((p) => p.name)).toEqual(['Laptop']);
  });

  it('refuses a wrong password with 401 and stores nothing: no challenge to answer, no passkey', async () => {
    const { browser, account } = await signedIn();
    expectError(await browser.post(OPTIONS, { password: 'wrong horse' }), 401, 'INVALID_CREDENTIALS');
    expect(await challengesOf(account.id)).toEqual([]);
    // An answer to a challenge never handed out is refused.
    const forged = new SoftwareAuthenticator(account.id).register('bm90LWEtY2hhbGxlbmdl');
    expectError(await browser.post(REGISTER, { name: 'Thief', response: forged }), 401, 'PASSKEY_REFUSED');
    expect((await browser.get(LIST)).json()).toEqual([]);
  });

  it('refuses no password with 400 and stores nothing', async () => {
    const { browser, account } = await signedIn();
    expectError(await browser.post(OPTIONS), 400, 'VALIDATION_FAILED');
    expectError(await browser.post(OPTIONS, {}), 400, 'VALIDATION_FAILED');
    // A code is no proof while two-factor is off.
    expectError(await browser.post(OPTIONS, { code: '123456' }), 400, 'VALIDATION_FAILED');
    expect(await challengesOf(account.id)).toEqual([]);
  });

  it('throttles repeated wrong passwords, with change-password sharing the count; the right one then waits too', async () => {
    const { browser, account } = await signedIn();
    for (let i = 0; i < LIMITS.loginMaxFailures - 1; i += 1) {
      expectError(await browser.post(OPTIONS, { password: `wrong ${i}` }), 401, 'INVALID_CREDENTIALS');
    }
    const changed = await browser.patch('/user-service/change-password', { oldPassword: 'wrong again', newPassword: 'a new password 1' });
    expectError(changed, 401, 'WRONG_PASSWORD');
    expectError(await browser.post(OPTIONS, { password: 'one more' }), 429, 'LOGIN_THROTTLED');
    expectError(await browser.post(OPTIONS, { password: account.password }), 429, 'LOGIN_THROTTLED');
    expect(await challengesOf(account.id)).toEqual([]);
    h.clock.advance(LIMITS.loginLockMs + 1);
    expect((await addWith(browser, account.id, { password: account.password })).statusCode).toBe(201);
  });

  it('with two-factor on, takes a code from the app in place of the password, once', async () => {
    const { browser, account } = await signedIn();
    const { secret } = await enableTwoFactor(browser, h.clock);
    const code = codeAt(secret, h.clock.now());
    expectError(await browser.post(OPTIONS, { code: code === '000000' ? '111111' : '000000' }), 401, 'INVALID_CODE');
    const added = await addWith(browser, account.id, { code });
    expect(added.statusCode, added.body).toBe(201);
    // The step is spent: the same code again proves nothing.
    expectError(await browser.post(OPTIONS, { code }), 401, 'INVALID_CODE');
    // The password still does.
    expect((await browser.post(OPTIONS, { password: account.password })).statusCode).toBe(200);
    expectError(await browser.post(OPTIONS, {}), 400, 'VALIDATION_FAILED');
  });

  it('asks an account without a password (single sign-on) for nothing, and takes no password for it', async () => {
    const { browser, account } = await signedIn();
    await h.app.database.db.updateTable('account').set({ hasPassword: 0 }).where('id', '=', account.id).execute();
    expectError(await browser.post(OPTIONS, { password: account.password }), 401, 'INVALID_CREDENTIALS');
    const added = await addWith(browser, account.id, undefined);
    expect(added.statusCode, added.body).toBe(201);
  });

  it('refuses malformed proofs with 400', async () => {
    const { browser, account } = await signedIn();
    for (const body of [
      { password: '' },
      { password: 42 },
      { password: 'x'.repeat(LIMITS.passwordMax + 1) },
      { password: ['correct horse'] },
      { code: '' },
      { code: 123456 },
      { code: '1'.repeat(17) },
      'not json',
      [],
    ]) {
      expectError(await browser.post(OPTIONS, body), 400);
    }
    expect(await challengesOf(account.id)).toEqual([]);
  });
});
