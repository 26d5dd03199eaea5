import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

describe('GET /user-service/user and /user-service/user-detailed', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  it('show the signed-in user', async () => {
    const browser = h.browser();
    const account = await browser.signUp(uniqueEmail());

    const user = await browser.get('/user-service/user');
    expect(user.statusCode).toBe(200);
    expect(user.json()).toEqual({ _id: account.id, email: account.email, emailVerified: true, role: expect.any(String) });

    const detailed = await browser.get('/user-service/user-detailed');
    expect(detailed.statusCode).toBe(200);
    expect(detailed.json()).toEqual({
      _id: account.id,
      email: account.email,
      emailVerified: true,
      role: expect.any(String),
      createdAt: expect.any(String),
      hasPassword: true,
    });
    expect(new Date(detailed.json<{ createdAt: string }>().createdAt).getTime()).toBe(h.clock.now());
  });

  it.each(['/user-service/user', '/user-service/user-detailed'])('%s answers 401 when signed out', async (url) => {
    expectError(await h.browser().get(url), 401, 'UNAUTHENTICATED');
  });

  it('answers 401 for a forged or garbled access token', async () => {
    const browser = h.browser();
    await browser.signUp(uniqueEmail());
    const real = browser.cookies.get('access-token')!.value;
    const [header, payload] = real.split('.');
    for (const forged of [`${header}.${payload}.`, `${header}.${payload}.AAAA`, 'garbage', '']) {
      browser.cookies.set('access-token', { value: forged, path: '/' });
      expectError(await browser.get('/user-service/user'), 401, 'UNAUTHENTICATED');
    }
  });

  it('answers 401 once the 20-minute access token has expired, until get-token renews it', async () => {
    const browser = h.browser();
    await browser.signUp(uniqueEmail());
    h.clock.advance(20 * 60_000 + 1000);
    expectError(await browser.get('/user-service/user'), 401);
    expect((await browser.post('/user-service/get-token')).statusCode).toBe(200);
    expect((await browser.get('/user-service/user')).statusCode).toBe(200);
  });
});

describe('POST /user-service/logout', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  it('ends the session: cookies cleared, the old tokens no longer work', async () => {
    const browser = h.browser();
    await browser.signUp(uniqueEmail());
    const access = browser.cookies.get('access-token')!;
    const refresh = browser.cookies.get('refresh-token')!;

    const response = await browser.post('/user-service/logout');
    expect(response.statusCode).toBe(200);
    expect(browser.cookies.size).toBe(0);

    // Replaying the tokens of the ended session fails.
    browser.cookies.set('access-token', access);
    browser.cookies.set('refresh-token', refresh);
    expectError(await browser.get('/user-service/user'), 401);
    expectError(await browser.post('/user-service/get-token'), 401);
  });

  it('ends the session by its refresh token when the access token has expired', async () => {
    const browser = h.browser();
    await browser.signUp(uniqueEmail());
    const refresh = browser.cookies.get('refresh-token')!;
    h.clock.advance(21 * 60_000);
    expect((await browser.post('/user-service/logout')).statusCode).toBe(200);
    browser.cookies.set('refresh-token', refresh);
    expectError(await browser.post('/user-service/get-token'), 401);
  });

  it('succeeds when signed out as well, whatever the cookies hold', async () => {
    expect((await h.browser().post('/user-service/logout')).statusCode).toBe(200);
    const browser = h.browser();
    for (const value of ['garbage', '%00.%00', 'a%00b.c']) {
      browser.cookies.set('access-token', { value, path: '/' });
      browser.cookies.set('refresh-token', { value, path: '/user-service' });
      expect((await browser.post('/user-service/logout')).statusCode).toBe(200);
    }
  });
});
