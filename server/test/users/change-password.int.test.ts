import { VALIDATION_MESSAGES } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, login, snapshotTables, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

const URL = '/user-service/change-password';

describe('PATCH /user-service/change-password', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  it('changes the password, ends the other sessions and keeps this one', async () => {
    const here = h.browser();
    const there = h.browser();
    const account = await here.signUp(uniqueEmail());
    await login(there, account.email, account.password);

    const response = await here.patch(URL, { oldPassword: account.password, newPassword: 'brand new secret' });
    expect(response.statusCode).toBe(200);

    expect((await here.get('/user-service/user')).statusCode).toBe(200);
    expect((await here.post('/user-service/get-token')).statusCode).toBe(200);
    expectError(await there.get('/user-service/user'), 401);
    expectError(await there.post('/user-service/get-token'), 401);

    expectError(await login(h.browser(), account.email, account.password), 401, 'INVALID_CREDENTIALS');
    expect((await login(h.browser(), account.email, 'brand new secret')).statusCode).toBe(200);
  });

  it('answers 401 WRONG_PASSWORD for a wrong current password and changes nothing', async () => {
    const browser = h.browser();
    const other = h.browser();
    const account = await browser.signUp(uniqueEmail());
    await login(other, account.email, account.password);
    const before = await snapshotTables(h.app);

    expectError(await browser.patch(URL, { oldPassword: 'not my password', newPassword: 'brand new secret' }), 401, 'WRONG_PASSWORD');

    // Only the wrong guess is counted (like a failed login).
    const after = await snapshotTables(h.app);
    expect({ ...after, loginThrottle: [] }).toEqual({ ...before, loginThrottle: [] });
    const counted = after.loginThrottle!.filter((row) => !before.loginThrottle!.some((b) => JSON.stringify(b) === JSON.stringify(row)));
    expect(counted).toEqual([expect.objectContaining({ emailKey: `password-check:${account.id}`, failures: 1 })]);
    expect((await other.get('/user-service/user')).statusCode).toBe(200);
    expect((await login(h.browser(), account.email, account.password)).statusCode).toBe(200);
  });

  it.each([
    ['new password too short', { oldPassword: 'correct horse', newPassword: '12345' }, VALIDATION_MESSAGES.passwordTooShort],
    ['new password too long', { oldPassword: 'correct horse', newPassword: 'x'.repeat(257) }, VALIDATION_MESSAGES.passwordTooLong],
    ['empty current password', { oldPassword: '', newPassword: 'brand new secret' }, undefined],
    ['missing fields', {}, undefined],
  ])('answers 400 for %s', async (_name, payload, message) => {
    const browser = h.browser();
    await browser.signUp(uniqueEmail());
    const before = await snapshotTables(h.app);
    const body = expectError(await browser.patch(URL, payload), 400, 'VALIDATION_FAILED');
    if (message) expect(body.error).toBe(message);
    expect(await snapshotTables(h.app)).toEqual(before);
  });

  it('answers 401 when signed out', async () => {
    expectError(await h.browser().patch(URL, { oldPassword: 'correct horse', newPassword: 'brand new secret' }), 401, 'UNAUTHENTICATED');
  });
});
