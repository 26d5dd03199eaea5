import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, login, snapshotTables, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

describe('POST /user-service/login', () => {
  let h: UsersHarness;
  let account: { id: string; email: string; password: string };
  beforeAll(async () => {
    h = await startUsersApp();
    account = await h.browser().signUp(uniqueEmail('Login'));
  });
  afterAll(() => h.close());

  it('answers 200 with the user and sets both cookies', async () => {
    const browser = h.browser();
    const response = await login(browser, account.email, account.password);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: { _id: account.id, email: account.email, emailVerified: true, role: expect.any(String) } });
    expect(response.cookies.map((c) => c.name).sort()).toEqual(['access-token', 'refresh-token']);
    expect((await browser.get('/user-service/user')).json()).toMatchObject({ _id: account.id });
  });

  it('compares the e-mail without regard to letter case or surrounding spaces', async () => {
    expect((await login(h.browser(), account.email.toUpperCase(), account.password)).statusCode).toBe(200);
    expect((await login(h.browser(), ` ${account.email.toLowerCase()}  `, account.password)).statusCode).toBe(200);
  });

  it('answers 401 with one and the same body for a wrong password and an unknown e-mail', async () => {
    const browser = h.browser();
    const wrongPassword = expectError(await login(browser, account.email, 'wrong-password'), 401, 'INVALID_CREDENTIALS');
    const unknownEmail = expectError(await login(browser, uniqueEmail('nobody'), account.password), 401, 'INVALID_CREDENTIALS');
    expect({ ...wrongPassword, requestId: '' }).toEqual({ ...unknownEmail, requestId: '' });
    expect(browser.cookies.size).toBe(0);
  });

  it.each([
    ['no body', undefined],
    ['an empty object', {}],
    ['no password', { email: 'a@example.com' }],
    ['no e-mail', { password: 'secret1' }],
    ['an empty e-mail', { email: '', password: 'secret1' }],
    ['an empty password', { email: 'a@example.com', password: '' }],
    ['a number for the e-mail', { email: 42, password: 'secret1' }],
    ['an array for the password', { email: 'a@example.com', password: ['secret1'] }],
    ['null fields', { email: null, password: null }],
  ])('answers 400 VALIDATION_FAILED for %s', async (_name, payload) => {
    const before = await snapshotTables(h.app);
    const browser = h.browser();
    expectError(await browser.post('/user-service/login', payload), 400, 'VALIDATION_FAILED');
    expect(browser.cookies.size).toBe(0);
    expect(await snapshotTables(h.app)).toEqual(before);
  });

  it('keeps each login a separate session', async () => {
    const first = h.browser();
    const second = h.browser();
    await login(first, account.email, account.password);
    await login(second, account.email, account.password);
    await first.post('/user-service/logout');
    expect((await first.get('/user-service/user')).statusCode).toBe(401);
    expect((await second.get('/user-service/user')).statusCode).toBe(200);
  });
});
