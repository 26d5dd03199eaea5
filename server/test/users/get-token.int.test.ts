import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../helpers/test-browser.js';
import { REFRESH_GRACE_MS } from '../../src/services/accounts/session.service.js';
import { SECOND, expectError, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

describe('POST /user-service/get-token', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  async function signedIn(): Promise<TestBrowser> {
    const browser = h.browser();
    await browser.signUp(uniqueEmail());
    return browser;
  }

  it('rotates both tokens: new cookies, and the new pair works', async () => {
    const browser = await signedIn();
    const oldAccess = browser.cookies.get('access-token')!.value;
    const oldRefresh = browser.cookies.get('refresh-token')!.value;
    h.clock.advance(1000);

    const response = await browser.post('/user-service/get-token');
    expect(response.statusCode).toBe(200);
    expect(response.cookies.map((c) => c.name).sort()).toEqual(['access-token', 'refresh-token']);
    expect(browser.cookies.get('access-token')!.value).not.toBe(oldAccess);
    expect(browser.cookies.get('refresh-token')!.value).not.toBe(oldRefresh);
    // Same session, new secret.
    expect(browser.cookies.get('refresh-token')!.value.split('.')[0]).toBe(oldRefresh.split('.')[0]);

    expect((await browser.get('/user-service/user')).statusCode).toBe(200);
    expect((await browser.post('/user-service/get-token')).statusCode).toBe(200);
  });

  it('treats a rotated-away token presented again as theft: 401 and the whole session revoked', async () => {
    const victim = await signedIn();
    const stolen = victim.cookies.get('refresh-token')!;
    expect((await victim.post('/user-service/get-token')).statusCode).toBe(200);
    // Past the grace that lets two tabs refresh at once.
    h.clock.advance(REFRESH_GRACE_MS + SECOND);

    const thief = new TestBrowser(h.app, victim.browserId);
    thief.cookies.set('refresh-token', stolen);
    expectError(await thief.post('/user-service/get-token'), 401, 'INVALID_TOKEN');

    // The newest tokens, held by the real browser, are dead too.
    expectError(await victim.get('/user-service/user'), 401);
    expectError(await victim.post('/user-service/get-token'), 401);
  });

  it('when the thief rotates first, the real browser presenting its token revokes the thief too', async () => {
    const victim = await signedIn();
    const thief = new TestBrowser(h.app, victim.browserId);
    thief.cookies.set('refresh-token', victim.cookies.get('refresh-token')!);
    expect((await thief.post('/user-service/get-token')).statusCode).toBe(200);
    expect((await thief.get('/user-service/user')).statusCode).toBe(200);
    h.clock.advance(REFRESH_GRACE_MS + SECOND);

    expectError(await victim.post('/user-service/get-token'), 401, 'INVALID_TOKEN');

    expectError(await thief.get('/user-service/user'), 401);
    expectError(await thief.post('/user-service/get-token'), 401);
  });

  it('lets the token it just replaced refresh again for a few seconds, from the same browser only', async () => {
    const browser = await signedIn();
    const previous = browser.cookies.get('refresh-token')!;
    expect((await browser.post('/user-service/get-token')).statusCode).toBe(200);

    // A second tab whose refresh crossed the first, or an answer lost on the way: no theft.
    const otherTab = new TestBrowser(h.app, browser.browserId);
    otherTab.cookies.set('refresh-token', previous);
    expect((await otherTab.post('/user-service/get-token')).statusCode).toBe(200);
    expect((await otherTab.get('/user-service/user')).statusCode).toBe(200);
    expect((await browser.post('/user-service/get-token')).statusCode).toBe(200);

    const elsewhere = new TestBrowser(h.app);
    elsewhere.cookies.set('refresh-token', previous);
    expectError(await elsewhere.post('/user-service/get-token'), 401, 'INVALID_TOKEN');
    expect((await browser.get('/user-service/user')).statusCode).toBe(200);
  });

  it('is bound to the browser id: another uuid gets 401', async () => {
    const browser = await signedIn();
    const elsewhere = new TestBrowser(h.app);
    elsewhere.cookies.set('refresh-token', browser.cookies.get('refresh-token')!);
    expectError(await elsewhere.post('/user-service/get-token'), 401, 'INVALID_TOKEN');
    // The rightful browser is unaffected.
    expect((await browser.post('/user-service/get-token')).statusCode).toBe(200);
  });

  it('answers 401 without a refresh token, or with a malformed or made-up one', async () => {
    const browser = h.browser();
    expectError(await browser.post('/user-service/get-token'), 401, 'INVALID_TOKEN');
    const real = (await signedIn()).cookies.get('refresh-token')!.value;
    const [sessionId] = real.split('.');
    const encoded = ['%00.%00', `${sessionId}%00.x`, "'%20OR%201%3D1%20--.x", `${'a'.repeat(5000)}.b`];
    for (const value of ['nonsense', '.', `${sessionId}.`, `${sessionId}.made-up`, `unknown.${real.split('.')[1]}`, ...encoded]) {
      browser.cookies.set('refresh-token', { value, path: '/user-service' });
      expectError(await browser.post('/user-service/get-token'), 401, 'INVALID_TOKEN');
    }
  });

  it('answers 401 after the refresh token has expired (30 days unused)', async () => {
    const browser = await signedIn();
    h.clock.advance(30 * 24 * 60 * 60_000 + 1000);
    expectError(await browser.post('/user-service/get-token'), 401, 'INVALID_TOKEN');
  });

  it('keeps a session alive while it is used', async () => {
    const browser = await signedIn();
    for (let day = 0; day < 3; day += 1) {
      h.clock.advance(20 * 24 * 60 * 60_000);
      expect((await browser.post('/user-service/get-token')).statusCode).toBe(200);
    }
    expect((await browser.get('/user-service/user')).statusCode).toBe(200);
  });
});
