import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../helpers/test-browser.js';
import { expectError, login, snapshotTables, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

const MEGA = 'a'.repeat(1_000_000);

type Call = [method: 'POST' | 'PATCH', url: string];
const CREATE: Call = ['POST', '/user-service/create'];
const LOGIN: Call = ['POST', '/user-service/login'];
const CHANGE: Call = ['PATCH', '/user-service/change-password'];
const VERIFY: Call = ['PATCH', '/user-service/verify-email'];
const SEND_RESET: Call = ['PATCH', '/user-service/send-password-reset'];
const RESET: Call = ['PATCH', '/user-service/reset-password'];

/** Missing and wrong-typed fields, and megabyte strings, for every call that takes a body. */
const BAD_BODIES: [string, Call, unknown][] = [
  ['create: missing password', CREATE, { email: 'a@example.com' }],
  ['create: e-mail is a number', CREATE, { email: 12345, password: 'secret1' }],
  ['create: password is an object', CREATE, { email: 'a@example.com', password: { length: 8 } }],
  ['create: password is a boolean', CREATE, { email: 'a@example.com', password: true }],
  ['create: body is an array', CREATE, [{ email: 'a@example.com', password: 'secret1' }]],
  ['create: body is a string', CREATE, '"a@example.com"'],
  ['create: 1 MB e-mail', CREATE, { email: `${MEGA}@example.com`, password: 'secret1' }],
  ['create: 1 MB password', CREATE, { email: 'a@example.com', password: MEGA }],
  ['create: 1 MB e-mail that is costly to pattern-match', CREATE, { email: `a@${'a.'.repeat(499_990)}@`, password: 'secret1' }],
  ['login: 1 MB e-mail', LOGIN, { email: MEGA, password: 'secret1' }],
  ['login: 1 MB password', LOGIN, { email: 'a@example.com', password: MEGA }],
  ['login: e-mail is an array', LOGIN, { email: ['a@example.com'], password: 'secret1' }],
  ['change-password: missing new password', CHANGE, { oldPassword: 'correct horse' }],
  ['change-password: new password is a number', CHANGE, { oldPassword: 'correct horse', newPassword: 12345678 }],
  ['change-password: 1 MB old password', CHANGE, { oldPassword: MEGA, newPassword: 'brand new' }],
  ['change-password: 1 MB new password', CHANGE, { oldPassword: 'correct horse', newPassword: MEGA }],
  ['verify-email: missing token', VERIFY, {}],
  ['verify-email: token is a number', VERIFY, { emailToken: 42 }],
  ['verify-email: 1 MB token', VERIFY, { emailToken: MEGA }],
  ['send-password-reset: missing e-mail', SEND_RESET, {}],
  ['send-password-reset: e-mail is null', SEND_RESET, { email: null }],
  ['send-password-reset: 1 MB e-mail', SEND_RESET, { email: MEGA }],
  ['reset-password: missing token', RESET, { password: 'brand new' }],
  ['reset-password: password is a number', RESET, { passwordToken: 'abc', password: 12345678 }],
  ['reset-password: 1 MB token', RESET, { passwordToken: MEGA, password: 'brand new' }],
  ['reset-password: 1 MB password', RESET, { passwordToken: 'abc', password: MEGA }],
];

describe('bad input answers 400 and changes nothing', () => {
  let h: UsersHarness;
  let browser: TestBrowser;
  let account: { email: string; password: string };
  let before: Awaited<ReturnType<typeof snapshotTables>>;

  beforeAll(async () => {
    h = await startUsersApp({ mail: true });
    browser = h.browser();
    account = await browser.signUp(uniqueEmail());
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    before = await snapshotTables(h.app);
  });

  async function expectUnchanged(): Promise<void> {
    expect(await snapshotTables(h.app)).toEqual(before);
    expect((await browser.get('/user-service/user')).statusCode).toBe(200);
    expect((await login(h.browser(), account.email, account.password)).statusCode).toBe(200);
    await h.browser().post('/user-service/logout');
  }

  it.each(BAD_BODIES)('%s', async (_name, [method, url], payload) => {
    const headers = typeof payload === 'string' ? { 'content-type': 'application/json' } : {};
    expectError(await browser.request(method, url, payload, headers), 400, 'VALIDATION_FAILED');
    expect(await snapshotTables(h.app)).toEqual(before);
  });

  it.each([CREATE, LOGIN, CHANGE, VERIFY, SEND_RESET, RESET])('%s %s: a body that is not JSON', async (method, url) => {
    expectError(await browser.request(method, url, '{"email": "a@example.com", ', { 'content-type': 'application/json' }), 400);
    expectError(await browser.request(method, url, 'email=a@example.com&password=x', { 'content-type': 'text/plain' }), 400);
    expectError(
      await browser.request(method, url, 'email=a%40example.com&password=secret1', { 'content-type': 'application/x-www-form-urlencoded' }),
      400,
    );
    expectError(await browser.request(method, url, '', { 'content-type': 'application/json' }), 400);
    await expectUnchanged();
  });

  it('a JSON body over the 1 MiB limit answers 413 and changes nothing', async () => {
    const response = await browser.post('/user-service/create', { email: 'a@example.com', password: 'é'.repeat(600_000) });
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    await expectUnchanged();
  });

  it('a JSON body trying to set the prototype answers 400', async () => {
    const payload = '{"email": "proto@example.com", "password": "secret1", "__proto__": {"emailVerified": true}}';
    expectError(await browser.request('POST', '/user-service/create', payload, { 'content-type': 'application/json' }), 400);
    await expectUnchanged();
  });

  it('extra fields are ignored, never stored', async () => {
    const email = uniqueEmail();
    const response = await h.browser().post('/user-service/create', { email, password: 'secret1', emailVerified: true, _id: 'chosen' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ user: { emailVerified: false } });
    expect(response.json<{ user: { _id: string } }>().user._id).not.toBe('chosen');
  });
});
