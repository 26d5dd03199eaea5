import type { PasskeyDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../helpers/test-browser.js';
import { expectError, startUsersApp, uniqueEmail, type UsersHarness } from '../users/support.js';
import { SoftwareAuthenticator } from './software-authenticator.js';

const OPTIONS = '/passkey-service/second-factor/options';
const VERIFY = '/passkey-service/second-factor/verify';

describe('a passkey as the second factor of a password sign-in', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  /** An account with two-factor on and a passkey; the browser that set them up is signed in. */
  async function withTwoFactorAndPasskey() {
    const owner = h.browser();
    const account = await owner.signUp(uniqueEmail());
    const authenticator = new SoftwareAuthenticator(account.id);
    const { challenge } = (await owner.post('/passkey-service/registration/options', { password: account.password })).json<{
      challenge: string;
    }>();
    const added = await owner.post('/passkey-service/registration/verify', { name: 'Key', response: authenticator.register(challenge) });
    expect(added.statusCode, added.body).toBe(201);
    const now = h.clock.now();
    // Two-factor on as its own routes leave it (the TOTP secret is not used here).
    await h.app.database.db
      .insertInto('twoFactor')
      .values({ accountId: account.id, secretCipher: 'unused', enabledAt: now, lastUsedStep: null, createdAt: now })
      .execute();
    return { owner, account, authenticator, passkey: added.json<PasskeyDto>() };
  }

  async function passwordStep(browser: TestBrowser, account: { email: string; password: string }): Promise<string> {
    const response = await browser.post('/user-service/login', { email: account.email, password: account.password });
    expect(response.statusCode, response.body).toBe(202);
    const { secondFactor } = response.json<{ secondFactor: { ticket: string; methods: string[] } }>();
    expect(secondFactor.methods).toContain('passkey');
    expect(browser.cookies.has('access-token')).toBe(false);
    return secondFactor.ticket;
  }

  async function optionsFor(browser: TestBrowser, ticket: string) {
    const response = await browser.post(OPTIONS, { ticket });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ challenge: string; allowCredentials: { id: string }[] }>();
  }

  it("finishes the sign-in with the account's passkey, once per ticket", async () => {
    const { account, authenticator } = await withTwoFactorAndPasskey();
    const browser = h.browser();
    const ticket = await passwordStep(browser, account);
    const options = await optionsFor(browser, ticket);
    expect(options.allowCredentials.map((c) => c.id)).toEqual([authenticator.id]);
    const done = await browser.post(VERIFY, { ticket, response: authenticator.assert(options.challenge) });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ user: { _id: account.id, email: account.email } });
    expect(browser.cookies.has('access-token')).toBe(true);
    expect((await browser.get('/user-service/user')).json()).toMatchObject({ _id: account.id });

    // The ticket is spent.
    expectError(await browser.post(OPTIONS, { ticket }), 401, 'INVALID_TICKET');
  });

  it("refuses another account's passkey, and leaves the ticket for the right one", async () => {
    const alice = await withTwoFactorAndPasskey();
    const mallory = await withTwoFactorAndPasskey();
    const browser = h.browser();
    const ticket = await passwordStep(browser, alice.account);
    const options = await optionsFor(browser, ticket);
    expectError(await browser.post(VERIFY, { ticket, response: mallory.authenticator.assert(options.challenge) }), 401, 'PASSKEY_REFUSED');
    expect(browser.cookies.has('access-token')).toBe(false);
    // A forged signature with Alice's own credential id.
    const again = await optionsFor(browser, ticket);
    expectError(
      await browser.post(VERIFY, { ticket, response: alice.authenticator.assert(again.challenge, { forge: true }) }),
      401,
      'PASSKEY_REFUSED',
    );
    const last = await optionsFor(browser, ticket);
    expect((await browser.post(VERIFY, { ticket, response: alice.authenticator.assert(last.challenge) })).statusCode).toBe(200);
  });

  it("refuses another browser's ticket, a made-up ticket, and a sign-in challenge", async () => {
    const { account, authenticator } = await withTwoFactorAndPasskey();
    const browser = h.browser();
    const ticket = await passwordStep(browser, account);
    const options = await optionsFor(browser, ticket);
    const thief = h.browser();
    expectError(await thief.post(OPTIONS, { ticket }), 401, 'INVALID_TICKET');
    expectError(await thief.post(VERIFY, { ticket, response: authenticator.assert(options.challenge) }), 401, 'INVALID_TICKET');
    expectError(await browser.post(OPTIONS, { ticket: 'made-up' }), 401, 'INVALID_TICKET');
    const { challenge } = (await browser.post('/passkey-service/sign-in/options')).json<{ challenge: string }>();
    expectError(await browser.post(VERIFY, { ticket, response: authenticator.assert(challenge) }), 401, 'PASSKEY_REFUSED');
  });

  it('refuses bad input with 400', async () => {
    const { account, authenticator } = await withTwoFactorAndPasskey();
    const browser = h.browser();
    const ticket = await passwordStep(browser, account);
    const { challenge } = await optionsFor(browser, ticket);
    const answer = authenticator.assert(challenge);
    for (const body of [{}, { ticket: '' }, { ticket: 'x'.repeat(257) }, { ticket: 42 }, 'nope'])
      expectError(await browser.post(OPTIONS, body), 400);
    for (const body of [
      { ticket },
      { response: answer },
      { ticket: 7, response: answer },
      { ticket, response: { ...answer, type: 'x' } },
    ]) {
      expectError(await browser.post(VERIFY, body), 400);
    }
  });
});
