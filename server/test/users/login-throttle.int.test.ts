import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE, SECOND, expectError, login, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

describe('login throttling', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  async function failTimes(email: string, times: number): Promise<void> {
    for (let i = 0; i < times; i += 1) expectError(await login(h.browser(), email, `wrong ${i}`), 401, 'INVALID_CREDENTIALS');
  }

  it('after 10 failures answers 429 even to the right password, and unlocks after 15 minutes', async () => {
    const account = await h.browser().signUp(uniqueEmail());
    await failTimes(account.email, 10);

    const lockedResponse = await login(h.browser(), account.email, account.password);
    const locked = expectError(lockedResponse, 429, 'LOGIN_THROTTLED');
    expect(locked.error).not.toMatch(/exist/i);
    expect(lockedResponse.headers['retry-after']).toBe('900');
    // Any spelling of the address shares the lock.
    expectError(await login(h.browser(), account.email.toUpperCase(), account.password), 429, 'LOGIN_THROTTLED');

    h.clock.advance(15 * MINUTE - SECOND);
    expectError(await login(h.browser(), account.email, account.password), 429, 'LOGIN_THROTTLED');
    h.clock.advance(SECOND);
    expect((await login(h.browser(), account.email, account.password)).statusCode).toBe(200);
  });

  it('throttles an unknown e-mail the same way, so the answer does not reveal whether it exists', async () => {
    const known = await h.browser().signUp(uniqueEmail());
    const unknown = uniqueEmail();
    await failTimes(known.email, 10);
    await failTimes(unknown, 10);
    const forKnown = expectError(await login(h.browser(), known.email, 'anything'), 429);
    const forUnknown = expectError(await login(h.browser(), unknown, 'anything'), 429);
    expect({ ...forKnown, requestId: '' }).toEqual({ ...forUnknown, requestId: '' });
  });

  it('counts failures within a 15-minute window only', async () => {
    const account = await h.browser().signUp(uniqueEmail());
    await failTimes(account.email, 9);
    h.clock.advance(15 * MINUTE);
    await failTimes(account.email, 9);
    expect((await login(h.browser(), account.email, account.password)).statusCode).toBe(200);
  });

  it('starts counting afresh after a successful login', async () => {
    const account = await h.browser().signUp(uniqueEmail());
    await failTimes(account.email, 9);
    expect((await login(h.browser(), account.email, account.password)).statusCode).toBe(200);
    await failTimes(account.email, 9);
    expect((await login(h.browser(), account.email, account.password)).statusCode).toBe(200);
  });

  it('locks one e-mail only', async () => {
    const victim = await h.browser().signUp(uniqueEmail());
    const bystander = await h.browser().signUp(uniqueEmail());
    await failTimes(victim.email, 10);
    expect((await login(h.browser(), bystander.email, bystander.password)).statusCode).toBe(200);
  });

  it('counts every one of many concurrent failures', async () => {
    const account = await h.browser().signUp(uniqueEmail());
    const attempts = Array.from({ length: 10 }, (_, i) => login(h.browser(), account.email, `wrong ${i}`));
    const statuses = (await Promise.all(attempts)).map((r) => r.statusCode);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expectError(await login(h.browser(), account.email, account.password), 429, 'LOGIN_THROTTLED');
  });

  it('keeps sessions that were already signed in', async () => {
    const browser = h.browser();
    const account = await browser.signUp(uniqueEmail());
    await failTimes(account.email, 10);
    expect((await browser.get('/user-service/user')).statusCode).toBe(200);
  });
});
