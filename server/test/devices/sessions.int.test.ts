import type { ActivityPageDto, SessionDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, login, MINUTE, startUsersApp, uniqueEmail, type UsersHarness } from '../users/support.js';
import type { TestBrowser } from '../helpers/test-browser.js';

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

async function sessionsOf(browser: TestBrowser): Promise<SessionDto[]> {
  const response = await browser.get('/user-service/sessions');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SessionDto[]>();
}

describe('Settings → Devices: /user-service/sessions', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  /** An account signed up in a Chrome on Linux, and signed in from a Firefox on Windows elsewhere. */
  async function twoDevices(): Promise<{ laptop: TestBrowser; desktop: TestBrowser; email: string; password: string }> {
    const laptop = h.browser();
    const desktop = h.browser();
    desktop.remoteAddress = '198.51.100.7';
    const email = uniqueEmail();
    const created = await laptop.request('POST', '/user-service/create', { email, password: 'secret1' }, { 'user-agent': CHROME_LINUX });
    expect(created.statusCode).toBe(201);
    const signedIn = await desktop.request(
      'POST',
      '/user-service/login',
      { email, password: 'secret1' },
      { 'user-agent': FIREFOX_WINDOWS },
    );
    expect(signedIn.statusCode).toBe(200);
    return { laptop, desktop, email, password: 'secret1' };
  }

  it('lists the sessions in force with browser, system, address, method, first and last seen, and the current one', async () => {
    const before = h.clock.now();
    const { laptop } = await twoDevices();
    const sessions = await sessionsOf(laptop);
    expect(sessions).toHaveLength(2);
    const mine = sessions.find((s) => s.current)!;
    const other = sessions.find((s) => !s.current)!;
    expect(mine).toMatchObject({ browser: 'Chrome 156', system: 'Linux', clientAddress: '127.0.0.1', signInMethod: 'password' });
    expect(other).toMatchObject({ browser: 'Firefox 133', system: 'Windows 10', clientAddress: '198.51.100.7', signInMethod: 'password' });
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(Date.parse(mine.createdAt)).toBe(before);
    // Kept to the minute.
    expect(Date.parse(mine.lastUsedAt) % MINUTE).toBe(0);
    expect(Date.parse(mine.lastUsedAt)).toBeLessThanOrEqual(before);
    expect(before - Date.parse(mine.lastUsedAt)).toBeLessThan(MINUTE);
    expect(Object.keys(mine).sort()).toEqual(
      ['browser', 'clientAddress', 'createdAt', 'current', 'id', 'lastUsedAt', 'signInMethod', 'system'].sort(),
    );
  });

  it('moves last seen on when a session refreshes, and not first seen', async () => {
    const { laptop } = await twoDevices();
    const [first] = (await sessionsOf(laptop)).filter((s) => s.current);
    h.clock.advance(10 * MINUTE);
    expect((await laptop.post('/user-service/get-token')).statusCode).toBe(200);
    const [after] = (await sessionsOf(laptop)).filter((s) => s.current);
    expect(after!.createdAt).toBe(first!.createdAt);
    expect(Date.parse(after!.lastUsedAt) - Date.parse(first!.lastUsedAt)).toBeGreaterThanOrEqual(9 * MINUTE);
  });

  it('describes an unknown or missing user agent as unknown', async () => {
    const browser = h.browser();
    const email = uniqueEmail();
    await browser.signUp(email);
    const phone = h.browser();
    await phone.request('POST', '/user-service/login', { email, password: 'correct horse' }, { 'user-agent': SAFARI_IPHONE });
    const sessions = await sessionsOf(browser);
    expect(sessions.find((s) => s.current)).toMatchObject({ browser: null, system: null });
    expect(sessions.find((s) => !s.current)).toMatchObject({ browser: 'Safari 18', system: 'iOS 18' });
  });

  it('leaves out ended sessions and other accounts’ sessions', async () => {
    const { laptop, desktop } = await twoDevices();
    const stranger = h.browser();
    await stranger.signUp(uniqueEmail());
    await desktop.post('/user-service/logout');
    const sessions = await sessionsOf(laptop);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.current).toBe(true);
  });

  it('signs out one session at once: its next request is 401, the others keep working', async () => {
    const { laptop, desktop } = await twoDevices();
    const third = h.browser();
    const email = (await laptop.get('/user-service/user')).json<{ email: string }>().email;
    expect((await login(third, email, 'secret1')).statusCode).toBe(200);
    const target = (await sessionsOf(laptop)).find((s) => !s.current && s.clientAddress === '198.51.100.7')!;

    const response = await laptop.delete(`/user-service/sessions/${target.id}`);
    expect(response.statusCode).toBe(204);

    // The desktop still holds an unexpired access token: it is refused anyway, and cannot refresh.
    expect(desktop.cookies.has('access-token')).toBe(true);
    expectError(await desktop.get('/user-service/user'), 401);
    expectError(await desktop.post('/user-service/get-token'), 401);
    expect((await laptop.get('/user-service/user')).statusCode).toBe(200);
    expect((await third.get('/user-service/user')).statusCode).toBe(200);
    expect((await third.post('/user-service/get-token')).statusCode).toBe(200);
    expect((await sessionsOf(laptop)).map((s) => s.id)).not.toContain(target.id);

    // Already ended: not found.
    expectError(await laptop.delete(`/user-service/sessions/${target.id}`), 404, 'SESSION_NOT_FOUND');
  });

  it('records the sign-out in the security log, naming the device', async () => {
    const { laptop } = await twoDevices();
    const target = (await sessionsOf(laptop)).find((s) => !s.current)!;
    h.clock.advance(1000);
    expect((await laptop.delete(`/user-service/sessions/${target.id}`)).statusCode).toBe(204);
    const page = (await laptop.get('/user-service/activity')).json<ActivityPageDto>();
    expect(page.events[0]).toMatchObject({ type: 'session-signed-out', details: { name: 'Firefox 133 on Windows 10' } });
  });

  it('signs out the current session too, clearing its cookies like logout', async () => {
    const { laptop, desktop } = await twoDevices();
    const mine = (await sessionsOf(laptop)).find((s) => s.current)!;
    const response = await laptop.delete(`/user-service/sessions/${mine.id}`);
    expect(response.statusCode).toBe(204);
    expect(laptop.cookies.size).toBe(0);
    expectError(await laptop.get('/user-service/user'), 401);
    expect((await desktop.get('/user-service/user')).statusCode).toBe(200);
  });

  it("answers 404 SESSION_NOT_FOUND for another account's session, and leaves it signed in", async () => {
    const { laptop } = await twoDevices();
    const other = h.browser();
    await other.signUp(uniqueEmail());
    const theirs = (await sessionsOf(other))[0]!;
    expectError(await laptop.delete(`/user-service/sessions/${theirs.id}`), 404, 'SESSION_NOT_FOUND');
    expect((await other.get('/user-service/user')).statusCode).toBe(200);
  });

  it('refuses bad ids', async () => {
    const { laptop } = await twoDevices();
    expectError(await laptop.delete('/user-service/sessions/nope'), 404, 'SESSION_NOT_FOUND');
    expectError(await laptop.delete(`/user-service/sessions/${'a'.repeat(65)}`), 400, 'VALIDATION_FAILED');
    expectError(await laptop.delete(`/user-service/sessions/${'x'.repeat(10_000)}`), 400, 'VALIDATION_FAILED');
    expectError(await laptop.delete(`/user-service/sessions/${encodeURIComponent("' OR 1=1 --")}`), 404, 'SESSION_NOT_FOUND');
    expectError(await laptop.delete(`/user-service/sessions/${encodeURIComponent('a\u0000b')}`), 400, 'VALIDATION_FAILED');
    // Nothing was signed out along the way.
    expect(await sessionsOf(laptop)).toHaveLength(2);
  });

  it('answers 401 when signed out', async () => {
    expectError(await h.browser().get('/user-service/sessions'), 401, 'UNAUTHENTICATED');
    expectError(await h.browser().delete('/user-service/sessions/abc'), 401, 'UNAUTHENTICATED');
  });
});
