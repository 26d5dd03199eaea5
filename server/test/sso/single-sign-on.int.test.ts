import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountDeletionRepository } from '../../src/db/repositories/account-deletion.repository.js';
import { hashPassword } from '../../src/security/password.js';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';
import { createTestApp } from '../helpers/test-app.js';
import type { TestBrowser } from '../helpers/test-browser.js';
import { MINUTE, expectError, login, startUsersApp, uniqueEmail, type UsersHarness } from '../users/support.js';
import { startTestProvider, type TestProvider } from './test-provider.js';

const APP_URL = 'http://localhost:3000';
const LABEL = 'Sign in with Example ID';

let op: TestProvider;
let h: UsersHarness;

beforeAll(async () => {
  op = await startTestProvider(`${APP_URL}/auth/oidc/callback`);
  h = await startUsersApp({
    config: { oidc: { issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, buttonLabel: LABEL } },
  });
});
afterAll(async () => {
  await h.close();
  await op.close();
});

let subjects = 0;
/** A user of the provider, with an e-mail it verified unless told otherwise. */
function providerUser(claims: { email?: string; email_verified?: boolean } = {}): { subject: string; email: string } {
  const subject = `sub-${++subjects}-${Date.now()}`;
  const email = claims.email ?? uniqueEmail('sso');
  op.users.set(subject, { email, email_verified: true, ...claims });
  return { subject, email };
}

async function start(browser: TestBrowser): Promise<string> {
  const response = await browser.get(`/auth/oidc/start?uuid=${browser.browserId}`);
  expect(response.statusCode, response.body).toBe(302);
  const location = String(response.headers.location);
  expect(location.startsWith(`${op.issuer}/`)).toBe(true);
  return location;
}

/** The provider's return, as the browser would follow it. */
function callback(browser: TestBrowser, back: URL): Promise<LightMyRequestResponse> {
  return browser.get(`${back.pathname}${back.search}`);
}

async function ssoSignIn(browser: TestBrowser, subject: string): Promise<LightMyRequestResponse> {
  return callback(browser, await op.signIn(await start(browser), subject));
}

function expectSignedInRedirect(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(302);
  expect(response.headers.location).toBe('/home');
}

function expectFailure(response: LightMyRequestResponse, code: string): void {
  expect(response.statusCode, response.body).toBe(302);
  expect(response.headers.location).toBe(`/?sso_error=${code}`);
  expect(String(response.headers['set-cookie'] ?? '')).not.toContain('access-token=ey');
}

async function signedInEmail(browser: TestBrowser): Promise<string> {
  const user = await browser.get('/user-service/user');
  expect(user.statusCode, user.body).toBe(200);
  return user.json<{ email: string }>().email;
}

const accountByEmail = (email: string) =>
  h.app.database.db.selectFrom('account').selectAll().where('emailKey', '=', email.toLowerCase()).executeTakeFirst();

describe('single sign-on (OpenID Connect) against a real provider', () => {
  it('lists the button in the sign-in options', async () => {
    const response = await h.browser().get('/user-service/sign-in-options');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ sso: { label: LABEL, url: '/auth/oidc/start' } });
  });

  it('a first sign-in makes an account without a password, signs in, and binds the session to the browser', async () => {
    const { subject, email } = providerUser();
    const browser = h.browser();
    expectSignedInRedirect(await ssoSignIn(browser, subject));
    expect(await signedInEmail(browser)).toBe(email);
    const account = await accountByEmail(email);
    expect(account).toMatchObject({ hasPassword: 0, emailVerified: 1, role: expect.any(String) });
    expect((await browser.get('/user-service/user-detailed')).json()).toMatchObject({ email, hasPassword: false });
    // The refresh cookie works for this browser's id only, as after a password sign-in.
    expect((await browser.post('/user-service/get-token')).statusCode).toBe(200);
    expect((await browser.request('POST', '/user-service/get-token', undefined, { uuid: 'another-browser' })).statusCode).toBe(401);
    const event = await h.app.database.db.selectFrom('securityEvent').selectAll().where('accountId', '=', account!.id).execute();
    expect(event.some((e) => e.type === 'sign-in' && String(e.details).includes('oidc'))).toBe(true);
  });

  it('a second sign-in finds the account by the subject, even after the e-mail changed at the provider', async () => {
    const { subject, email } = providerUser();
    expectSignedInRedirect(await ssoSignIn(h.browser(), subject));
    const first = await accountByEmail(email);
    op.users.set(subject, { email: uniqueEmail('renamed'), email_verified: true });
    const browser = h.browser();
    expectSignedInRedirect(await ssoSignIn(browser, subject));
    expect(await signedInEmail(browser)).toBe(email);
    const rows = await h.app.database.db.selectFrom('oidcIdentity').selectAll().where('subject', '=', subject).execute();
    expect(rows).toEqual([expect.objectContaining({ issuer: op.issuer, accountId: first!.id })]);
  });

  it('links an existing password account with the same verified e-mail; its password still works', async () => {
    const owner = await h.browser().signUp(uniqueEmail('owner'));
    const { subject } = providerUser({ email: owner.email.toUpperCase() });
    const browser = h.browser();
    expectSignedInRedirect(await ssoSignIn(browser, subject));
    expect(await signedInEmail(browser)).toBe(owner.email);
    expect((await h.app.database.db.selectFrom('account').select('id').where('emailKey', '=', owner.email).execute()).length).toBe(1);
    expect((await login(h.browser(), owner.email, owner.password)).statusCode).toBe(200);
  });

  it('refuses an e-mail the provider did not verify, and makes no account', async () => {
    const { subject, email } = providerUser({ email_verified: false });
    const browser = h.browser();
    expectFailure(await ssoSignIn(browser, subject), 'unverified_email');
    expect(await accountByEmail(email)).toBeUndefined();
    expect((await browser.get('/user-service/user')).statusCode).toBe(401);
  });

  it('refuses a provider user without an e-mail', async () => {
    const subject = `no-mail-${Date.now()}`;
    op.users.set(subject, {});
    expectFailure(await ssoSignIn(h.browser(), subject), 'unverified_email');
  });

  it('does not link an account whose own address is unverified here (someone may have signed up with it)', async () => {
    const squatter = await h.browser().signUp(uniqueEmail('squat'));
    await h.app.database.db.updateTable('account').set({ emailVerified: 0 }).where('id', '=', squatter.id).execute();
    const { subject } = providerUser({ email: squatter.email });
    expectFailure(await ssoSignIn(h.browser(), subject), 'unverified_account');
    expect(await h.app.database.db.selectFrom('oidcIdentity').selectAll().where('subject', '=', subject).execute()).toEqual([]);
  });

  it('refuses a wrong state, and a return in a browser that did not start the sign-in', async () => {
    const { subject } = providerUser();
    const browser = h.browser();
    const back = await op.signIn(await start(browser), subject);
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state');
    expectFailure(await callback(browser, forged), 'invalid_state');
    // Another browser (no state cookie) given the whole return address: login CSRF.
    const victim = h.browser();
    expectFailure(await callback(victim, back), 'invalid_state');
    expect((await victim.get('/user-service/user')).statusCode).toBe(401);
  });

  it('refuses a return without a state or a code, and one the provider answered with an error', async () => {
    const browser = h.browser();
    expectFailure(await browser.get('/auth/oidc/callback'), 'invalid_state');
    const location = new URL(await start(browser));
    const state = location.searchParams.get('state') ?? '';
    expectFailure(
      await browser.get(`/auth/oidc/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(op.issuer)}`),
      'provider_error',
    );
  });

  it('refuses a replayed return, and a used code with a fresh state', async () => {
    const { subject } = providerUser();
    const browser = h.browser();
    const back = await op.signIn(await start(browser), subject);
    const stateCookie = browser.cookies.get('oidc-state');
    expectSignedInRedirect(await callback(browser, back));
    // The same return again, state cookie and all.
    const replayer = h.browser();
    if (stateCookie) replayer.cookies.set('oidc-state', stateCookie);
    expectFailure(await callback(replayer, back), 'invalid_state');
    // The code with a state of its own: the provider refuses a code used once.
    const fresh = new URL(await start(replayer));
    const reused = new URL(back);
    reused.searchParams.set('state', fresh.searchParams.get('state') ?? '');
    expectFailure(await callback(replayer, reused), 'provider_error');
    expect((await replayer.get('/user-service/user')).statusCode).toBe(401);
  });

  it('refuses a sign-in that took more than ten minutes', async () => {
    const { subject, email } = providerUser();
    const browser = h.browser();
    const back = await op.signIn(await start(browser), subject);
    h.clock.advance(10 * MINUTE + 1);
    expectFailure(await callback(browser, back), 'invalid_state');
    expect(await accountByEmail(email)).toBeUndefined();
  });

  it('with sign-up closed, refuses an unknown user but lets a linked one in', async () => {
    const linked = providerUser();
    expectSignedInRedirect(await ssoSignIn(h.browser(), linked.subject));
    await h.app.database.db.insertInto('serverSetting').values({ key: 'signup', value: '"closed"', updatedAt: Date.now() }).execute();
    try {
      const stranger = providerUser();
      expectFailure(await ssoSignIn(h.browser(), stranger.subject), 'signup_closed');
      expect(await accountByEmail(stranger.email)).toBeUndefined();
      const browser = h.browser();
      expectSignedInRedirect(await ssoSignIn(browser, linked.subject));
      expect(await signedInEmail(browser)).toBe(linked.email);
    } finally {
      await h.app.database.db.deleteFrom('serverSetting').where('key', '=', 'signup').execute();
    }
  });

  it('refuses a disabled account', async () => {
    const { subject, email } = providerUser();
    expectSignedInRedirect(await ssoSignIn(h.browser(), subject));
    await h.app.database.db.updateTable('account').set({ disabledAt: Date.now() }).where('emailKey', '=', email).execute();
    const browser = h.browser();
    expectFailure(await ssoSignIn(browser, subject), 'account_disabled');
    expect((await browser.get('/user-service/user')).statusCode).toBe(401);
  });

  it('an account made by single sign-on has no password to sign in with, until a reset sets one', async () => {
    const { subject, email } = providerUser();
    expectSignedInRedirect(await ssoSignIn(h.browser(), subject));
    // Whatever is tried, the answer is a wrong password's.
    for (const password of ['', 'correct horse', 'x'.repeat(200)]) {
      const response = await login(h.browser(), email, password);
      if (password === '') expectError(response, 400);
      else expectError(response, 401, 'INVALID_CREDENTIALS');
    }
  });

  it('password sign-in refuses it even with its stored hash’s password: the account has none', async () => {
    const { subject, email } = providerUser();
    expectSignedInRedirect(await ssoSignIn(h.browser(), subject));
    // As if the unknowable hash were known: has_password alone still refuses it.
    await h.app.database.db
      .updateTable('account')
      .set({ passwordHash: await hashPassword('known secret') })
      .where('emailKey', '=', email)
      .execute();
    expectError(await login(h.browser(), email, 'known secret'), 401, 'INVALID_CREDENTIALS');
  });

  it('a deleted account takes its link along: the provider user is a newcomer again', async () => {
    const { subject, email } = providerUser();
    expectSignedInRedirect(await ssoSignIn(h.browser(), subject));
    const first = await accountByEmail(email);
    await new AccountDeletionRepository(h.app.database.db).removeRest(first!.id);
    expect(await h.app.database.db.selectFrom('oidcIdentity').selectAll().where('accountId', '=', first!.id).execute()).toEqual([]);
    expectSignedInRedirect(await ssoSignIn(h.browser(), subject));
    expect((await accountByEmail(email))?.id).not.toBe(first!.id);
  });

  it('its app password works over WebDAV', async () => {
    const { subject, email } = providerUser();
    const browser = h.browser();
    expectSignedInRedirect(await ssoSignIn(browser, subject));
    const created = await browser.post('/user-service/app-passwords', { name: 'phone' });
    expect(created.statusCode, created.body).toBe(201);
    const basic = (secret: string) => `Basic ${Buffer.from(`${email}:${secret}`).toString('base64')}`;
    const propfind = (secret: string) =>
      h.app.inject({ method: 'PROPFIND', url: '/dav/', headers: { authorization: basic(secret), depth: '0' } });
    expect((await propfind(created.json<{ password: string }>().password)).statusCode).toBe(207);
    expect((await propfind('not-the-app-password')).statusCode).toBe(401);
  });

  it('refuses a start without a valid browser id', async () => {
    const browser = h.browser();
    for (const query of ['', '?uuid=', `?uuid=${'a'.repeat(101)}`, '?uuid=has%20space', '?uuid=%3Cscript%3E']) {
      expectFailure(await browser.get(`/auth/oidc/start${query}`), 'invalid_state');
    }
    expect(await h.app.database.db.selectFrom('oidcLogin').selectAll().where('browserId', '=', '').execute()).toEqual([]);
  });

  it('refuses garbled returns: huge, repeated or forged state, no code', async () => {
    const browser = h.browser();
    await start(browser);
    for (const query of [`?state=${'x'.repeat(5000)}&code=y`, '?state=a&state=b&code=c', '?code=%00', '?state=&code=']) {
      expectFailure(await browser.get(`/auth/oidc/callback${query}`), 'invalid_state');
    }
    // A state cookie and a matching state the server never issued.
    browser.cookies.set('oidc-state', { value: 'made-up', path: '/auth/oidc' });
    expectFailure(await browser.get('/auth/oidc/callback?state=made-up&code=c'), 'invalid_state');
    expectFailure(await browser.get(`/auth/oidc/start?uuid=${browser.browserId}&uuid=other`), 'invalid_state');
  });

  it('answers a provider that cannot be reached with provider_error', async () => {
    const down = await startUsersApp({
      config: { oidc: { issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y', buttonLabel: LABEL } },
    });
    try {
      const browser = down.browser();
      expectFailure(await browser.get(`/auth/oidc/start?uuid=${browser.browserId}`), 'provider_error');
    } finally {
      await down.close();
    }
  });
});

describe('single sign-on with e-mail', () => {
  it('a reset e-mail sets a password for an account made by single sign-on', async () => {
    const mailed = await startUsersApp({
      mail: true,
      config: { oidc: { issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, buttonLabel: LABEL } },
    });
    try {
      const { subject, email } = providerUser();
      const browser = mailed.browser();
      const back = await op.signIn(String((await browser.get(`/auth/oidc/start?uuid=${browser.browserId}`)).headers.location), subject);
      expectSignedInRedirect(await browser.get(`${back.pathname}${back.search}`));
      expectError(await login(mailed.browser(), email, 'new secret'), 401, 'INVALID_CREDENTIALS');

      const since = mailed.smtp!.messages.length;
      expect((await mailed.browser().patch('/user-service/send-password-reset', { email })).statusCode).toBe(200);
      const prefix = `${APP_URL}/reset-password/`;
      const token = SmtpReceiver.link(await mailed.smtp!.next(email, since), prefix).slice(prefix.length);
      expect(
        (await mailed.browser().patch('/user-service/reset-password', { passwordToken: token, password: 'new secret' })).statusCode,
      ).toBe(200);

      const signedIn = mailed.browser();
      expect((await login(signedIn, email, 'new secret')).statusCode).toBe(200);
      expect((await signedIn.get('/user-service/user-detailed')).json()).toMatchObject({ hasPassword: true });
    } finally {
      await mailed.close();
    }
  });
});

describe('without single sign-on configured', () => {
  it('offers none, and has no flow routes', async () => {
    const plain = await createTestApp();
    try {
      const options = await plain.app.inject({ method: 'GET', url: '/user-service/sign-in-options' });
      expect(options.json()).toEqual({ sso: null });
      expect((await plain.app.inject({ method: 'GET', url: '/auth/oidc/start?uuid=abc' })).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
