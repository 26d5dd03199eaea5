import type { ActivityEventDto, PasskeyDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountDeletionRepository } from '../../src/db/repositories/account-deletion.repository.js';
import type { TestBrowser } from '../helpers/test-browser.js';
import { expectError, MINUTE, startUsersApp, uniqueEmail, type UsersHarness } from '../users/support.js';
import { SoftwareAuthenticator } from './software-authenticator.js';

const REGISTER_OPTIONS = '/passkey-service/registration/options';
const REGISTER = '/passkey-service/registration/verify';
const LIST = '/passkey-service/passkeys';
const SIGN_IN_OPTIONS = '/passkey-service/sign-in/options';
const SIGN_IN = '/passkey-service/sign-in/verify';
/** The password TestBrowser.signUp gives every account: adding a passkey asks for it. */
const PROOF = { password: 'correct horse' };

describe('passkeys', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  async function challengeOf(browser: TestBrowser, url: string, body?: object): Promise<string> {
    const response = await browser.post(url, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ challenge: string }>().challenge;
  }

  /** An account signed in on one browser, with a passkey registered from it. */
  async function withPasskey(name = 'Laptop') {
    const browser = h.browser();
    const account = await browser.signUp(uniqueEmail());
    const authenticator = new SoftwareAuthenticator(account.id);
    const added = await browser.post(REGISTER, {
      name,
      response: authenticator.register(await challengeOf(browser, REGISTER_OPTIONS, PROOF)),
    });
    expect(added.statusCode, added.body).toBe(201);
    return { browser, account, authenticator, passkey: added.json<PasskeyDto>() };
  }

  async function signInWith(authenticator: SoftwareAuthenticator, options: Parameters<SoftwareAuthenticator['assert']>[1] = {}) {
    const browser = h.browser();
    const challenge = await challengeOf(browser, SIGN_IN_OPTIONS);
    return { browser, response: await browser.post(SIGN_IN, { response: authenticator.assert(challenge, options) }), challenge };
  }

  it('registers a named passkey, lists it, and signs in with it alone, cookies and all', async () => {
    const { account, authenticator, passkey, browser } = await withPasskey('  My laptop  ');
    expect(passkey).toMatchObject({ name: 'My laptop', lastUsedAt: null, backedUp: false });
    const options = (await browser.post(REGISTER_OPTIONS, PROOF)).json<{
      excludeCredentials: { id: string }[];
      authenticatorSelection: object;
    }>();
    expect(options.excludeCredentials.map((c) => c.id)).toEqual([authenticator.id]);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'preferred' });

    const { browser: other, response } = await signInWith(authenticator);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ user: { _id: account.id, email: account.email, emailVerified: true, role: expect.any(String) } });
    expect(other.cookies.has('access-token')).toBe(true);
    expect(other.cookies.has('refresh-token')).toBe(true);
    expect((await other.get('/user-service/user')).json()).toMatchObject({ _id: account.id });
    const listed = (await other.get(LIST)).json<PasskeyDto[]>();
    expect(listed).toEqual([{ ...passkey, lastUsedAt: expect.stringMatching(/^\d{4}-/) }]);

    const events = (await other.get('/user-service/activity')).json<{ events: ActivityEventDto[] }>().events;
    expect(events.find((e) => e.type === 'sign-in')?.details).toEqual({ kind: 'passkey' });
    expect(events.find((e) => e.type === 'passkey-added')?.details).toEqual({ name: 'My laptop' });
  });

  it('renames and removes; a removed passkey signs in no more', async () => {
    const { browser, authenticator, passkey } = await withPasskey();
    const renamed = await browser.patch(`${LIST}/${passkey.id}`, { name: 'YubiKey' });
    expect(renamed.json<PasskeyDto>().name).toBe('YubiKey');
    expect((await browser.delete(`${LIST}/${passkey.id}`)).statusCode).toBe(204);
    expect((await browser.get(LIST)).json()).toEqual([]);
    expectError((await signInWith(authenticator)).response, 401, 'PASSKEY_REFUSED');
    const types = (await browser.get('/user-service/activity')).json<{ events: ActivityEventDto[] }>().events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['passkey-renamed', 'passkey-removed']));
  });

  it("refuses a passkey answering for another account's user handle", async () => {
    const alice = await withPasskey();
    const bob = await withPasskey();
    // Alice's key, claiming to be Bob.
    alice.authenticator.userHandle = bob.account.id;
    expectError((await signInWith(alice.authenticator)).response, 401, 'PASSKEY_REFUSED');
  });

  it('never reaches another account’s passkeys: rename and remove answer as for a missing one', async () => {
    const alice = await withPasskey();
    const bob = await withPasskey();
    expectError(await bob.browser.patch(`${LIST}/${alice.passkey.id}`, { name: 'mine' }), 404, 'NOT_FOUND');
    expectError(await bob.browser.delete(`${LIST}/${alice.passkey.id}`), 404, 'NOT_FOUND');
    expect((await bob.browser.get(LIST)).json<PasskeyDto[]>().map((p) => p.id)).toEqual([bob.passkey.id]);
    expect((await alice.browser.get(LIST)).json<PasskeyDto[]>()[0]!.name).toBe('Laptop');
  });

  it('refuses a forged signature', async () => {
    const { authenticator } = await withPasskey();
    const { response, browser } = await signInWith(authenticator, { forge: true });
    expectError(response, 401, 'PASSKEY_REFUSED');
    expect(browser.cookies.has('access-token')).toBe(false);
  });

  it('refuses a replayed challenge, and a replayed answer', async () => {
    const { authenticator } = await withPasskey();
    const { browser, response, challenge } = await signInWith(authenticator);
    expect(response.statusCode).toBe(200);
    // The same answer again, and a fresh signature over the spent challenge.
    expectError(
      await browser.post(SIGN_IN, { response: authenticator.assert(challenge, { counter: authenticator.counter }) }),
      401,
      'PASSKEY_REFUSED',
    );
    expectError(await browser.post(SIGN_IN, { response: authenticator.assert(challenge) }), 401, 'PASSKEY_REFUSED');
  });

  it('refuses a challenge made for another browser, or expired', async () => {
    const { authenticator } = await withPasskey();
    const first = h.browser();
    const challenge = await challengeOf(first, SIGN_IN_OPTIONS);
    expectError(await h.browser().post(SIGN_IN, { response: authenticator.assert(challenge) }), 401, 'PASSKEY_REFUSED');
    const late = await challengeOf(first, SIGN_IN_OPTIONS);
    h.clock.advance(5 * MINUTE + 1);
    expectError(await first.post(SIGN_IN, { response: authenticator.assert(late) }), 401, 'PASSKEY_REFUSED');
  });

  it('refuses a registration challenge used to sign in, and a made-up challenge', async () => {
    const { authenticator, browser } = await withPasskey();
    const registration = await challengeOf(browser, REGISTER_OPTIONS, PROOF);
    expectError(await browser.post(SIGN_IN, { response: authenticator.assert(registration) }), 401, 'PASSKEY_REFUSED');
    expectError(await browser.post(SIGN_IN, { response: authenticator.assert('bm90LWEtY2hhbGxlbmdl') }), 401, 'PASSKEY_REFUSED');
  });

  it('refuses another origin or relying party, at registration and at sign-in', async () => {
    const browser = h.browser();
    const account = await browser.signUp(uniqueEmail());
    const key = new SoftwareAuthenticator(account.id);
    for (const ceremony of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { type: 'webauthn.get' }]) {
      const answer = key.register(await challengeOf(browser, REGISTER_OPTIONS, PROOF), ceremony);
      expectError(await browser.post(REGISTER, { name: 'x', response: answer }), 401, 'PASSKEY_REFUSED');
    }
    expect((await browser.get(LIST)).json()).toEqual([]);

    const { authenticator } = await withPasskey();
    for (const ceremony of [{ origin: 'https://evil.example' }, { origin: 'http://localhost:3001' }, { rpId: 'evil.example' }]) {
      expectError((await signInWith(authenticator, ceremony)).response, 401, 'PASSKEY_REFUSED');
    }
    expect((await signInWith(authenticator)).response.statusCode).toBe(200);
  });

  it('refuses a signature counter that does not move forward (a cloned key)', async () => {
    const { authenticator } = await withPasskey();
    expect((await signInWith(authenticator, { counter: 10 })).response.statusCode).toBe(200);
    expectError((await signInWith(authenticator, { counter: 10 })).response, 401, 'PASSKEY_REFUSED');
    expectError((await signInWith(authenticator, { counter: 3 })).response, 401, 'PASSKEY_REFUSED');
    expect((await signInWith(authenticator, { counter: 11 })).response.statusCode).toBe(200);
  });

  it('refuses the same passkey twice, and an account past 20 passkeys', async () => {
    const { browser, authenticator } = await withPasskey();
    const again = await browser.post(REGISTER, {
      name: 'again',
      response: authenticator.register(await challengeOf(browser, REGISTER_OPTIONS, PROOF)),
    });
    expectError(again, 409, 'CONFLICT');
    for (let i = 1; i < 20; i += 1) {
      const key = new SoftwareAuthenticator('x');
      const added = await browser.post(REGISTER, {
        name: `key ${i}`,
        response: key.register(await challengeOf(browser, REGISTER_OPTIONS, PROOF)),
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    expectError(await browser.post(REGISTER_OPTIONS, PROOF), 409, 'CONFLICT');
  });

  it('deleting an account takes its passkeys and challenges along', async () => {
    const { account, browser, authenticator } = await withPasskey();
    await challengeOf(browser, REGISTER_OPTIONS, PROOF);
    await new AccountDeletionRepository(h.app.database.db).removeRest(account.id);
    const db = h.app.database.db;
    expect(await db.selectFrom('passkey').select('id').where('accountId', '=', account.id).execute()).toEqual([]);
    expect(await db.selectFrom('webauthnChallenge').select('challengeHash').where('accountId', '=', account.id).execute()).toEqual([]);
    expectError((await signInWith(authenticator)).response, 401, 'PASSKEY_REFUSED');
  });

  it('signs in no disabled account', async () => {
    const { account, authenticator } = await withPasskey();
    await h.app.database.db.updateTable('account').set({ disabledAt: h.clock.now() }).where('id', '=', account.id).execute();
    expectError((await signInWith(authenticator)).response, 403, 'ACCOUNT_DISABLED');
  });

  it('throttles failed answers per address group', async () => {
    const { authenticator } = await withPasskey();
    const browser = h.browser();
    browser.remoteAddress = '203.0.113.7';
    let last;
    for (let i = 0; i < 101; i += 1) {
      const challenge = await challengeOf(browser, SIGN_IN_OPTIONS);
      last = await browser.post(SIGN_IN, { response: authenticator.assert(challenge, { forge: true }) });
    }
    expectError(last!, 429, 'LOGIN_THROTTLED');
    const challenge = await challengeOf(browser, SIGN_IN_OPTIONS);
    expectError(await browser.post(SIGN_IN, { response: authenticator.assert(challenge) }), 429, 'LOGIN_THROTTLED');
  });

  it('refuses bad input with 400, signed-out calls with 401, and no browser id', async () => {
    const { browser, authenticator, passkey } = await withPasskey();
    const challenge = await challengeOf(browser, REGISTER_OPTIONS, PROOF);
    const good = authenticator.register(challenge);
    for (const body of [
      {},
      'not json',
      { name: 'x' },
      { name: '', response: good },
      { name: '   ', response: good },
      { name: 'x'.repeat(101), response: good },
      { name: 42, response: good },
      { name: 'x', response: { ...good, type: 'password' } },
      { name: 'x', response: { ...good, id: 'not base64url!' } },
      { name: 'x', response: { ...good, response: { ...good.response, attestationObject: 'A'.repeat(20_000) } } },
      { name: 'x', response: { ...good, response: { clientDataJSON: good.response.clientDataJSON } } },
      { name: 'x', response: [] },
    ]) {
      expectError(await browser.post(REGISTER, body), 400);
    }
    const assertion = authenticator.assert(challenge);
    for (const body of [
      {},
      { response: null },
      { response: { ...assertion, response: { ...assertion.response, signature: 7 } } },
      { response: { ...assertion, id: 'x'.repeat(2000) } },
    ]) {
      expectError(await browser.post(SIGN_IN, body), 400);
    }
    // A well-formed answer whose client data is not JSON.
    expectError(
      await browser.post(SIGN_IN, { response: { ...assertion, response: { ...assertion.response, clientDataJSON: 'bm90IGpzb24' } } }),
      401,
      'PASSKEY_REFUSED',
    );
    expectError(await browser.patch(`${LIST}/${passkey.id}`, { name: '' }), 400);
    expectError(await browser.patch(`${LIST}/${'x'.repeat(65)}`, { name: 'ok' }), 400);
    expectError(await browser.delete(`${LIST}/${'x'.repeat(65)}`), 400);
    expectError(await browser.delete(`${LIST}/unknown`), 404, 'NOT_FOUND');
    expectError(await browser.request('POST', SIGN_IN_OPTIONS, undefined, { uuid: undefined }), 400, 'MISSING_BROWSER_ID');

    const anonymous = h.browser();
    expectError(await anonymous.post(REGISTER_OPTIONS), 401);
    expectError(await anonymous.post(REGISTER, { name: 'x', response: good }), 401);
    expectError(await anonymous.get(LIST), 401);
    expectError(await anonymous.patch(`${LIST}/${passkey.id}`, { name: 'x' }), 401);
    expectError(await anonymous.delete(`${LIST}/${passkey.id}`), 401);
  });
});
