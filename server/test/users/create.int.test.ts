import { VALIDATION_MESSAGES } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, snapshotTables, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

describe('POST /user-service/create', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  it('creates the account, answers 201 with the user and signs the browser in', async () => {
    const browser = h.browser();
    const email = uniqueEmail();
    const response = await browser.post('/user-service/create', { email, password: 'secret1' });

    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({ user: { _id: expect.any(String), email, emailVerified: true, role: expect.any(String) }, emailSent: false });
    const cookies = Object.fromEntries(response.cookies.map((c) => [c.name, c]));
    expect(cookies['access-token']).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookies['refresh-token']).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/user-service' });
    expect(cookies['refresh-token']?.value).toMatch(/^[\w-]+\.[\w-]+$/);

    const me = await browser.get('/user-service/user');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual(body.user);
  });

  it('answers 409 EMAIL_EXISTS for an e-mail already taken, in any letter case', async () => {
    const email = uniqueEmail('Taken');
    await h.browser().signUp(email);
    const before = await snapshotTables(h.app);

    expectError(await h.browser().post('/user-service/create', { email, password: 'another1' }), 409, 'EMAIL_EXISTS');
    expectError(await h.browser().post('/user-service/create', { email: email.toUpperCase(), password: 'another1' }), 409, 'EMAIL_EXISTS');
    expectError(await h.browser().post('/user-service/create', { email: `  ${email.toLowerCase()} `, password: 'another1' }), 409);
    expect(await snapshotTables(h.app)).toEqual(before);
  });

  it.each([
    ['password too short', { email: 'a@example.com', password: '12345' }, VALIDATION_MESSAGES.passwordTooShort],
    ['password too long', { email: 'a@example.com', password: 'x'.repeat(257) }, VALIDATION_MESSAGES.passwordTooLong],
    ['e-mail too short', { email: 'a@', password: 'secret1' }, VALIDATION_MESSAGES.emailTooShort],
    ['e-mail too long', { email: `${'a'.repeat(310)}@example.com`, password: 'secret1' }, VALIDATION_MESSAGES.emailTooLong],
    ['e-mail malformed', { email: 'not-an-email', password: 'secret1' }, VALIDATION_MESSAGES.emailInvalid],
    ['e-mail without a dot in the domain', { email: 'a@localhost', password: 'secret1' }, VALIDATION_MESSAGES.emailInvalid],
    ['both wrong: the password rule is reported first', { email: 'x', password: '1' }, VALIDATION_MESSAGES.passwordTooShort],
  ])('answers 400 for %s', async (_name, payload, message) => {
    const before = await snapshotTables(h.app);
    const body = expectError(await h.browser().post('/user-service/create', payload), 400, 'VALIDATION_FAILED');
    expect(body.error).toBe(message);
    expect(await snapshotTables(h.app)).toEqual(before);
  });

  it('accepts the boundary lengths (password 6 and 256, e-mail 320)', async () => {
    const longEmail = `${'a'.repeat(320 - '@example.com'.length)}@example.com`;
    expect((await h.browser().post('/user-service/create', { email: uniqueEmail(), password: '123456' })).statusCode).toBe(201);
    expect((await h.browser().post('/user-service/create', { email: uniqueEmail(), password: 'p'.repeat(256) })).statusCode).toBe(201);
    expect((await h.browser().post('/user-service/create', { email: longEmail, password: 'secret1' })).statusCode).toBe(201);
  });
});

describe('POST /user-service/create with SIGNUP=closed', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    // The runtime contract: `closed` refuses new accounts, the first one of a fresh server included.
    h = await startUsersApp({ config: { signup: 'closed' } });
  });
  afterAll(() => h.close());

  it('answers 403 SIGNUP_CLOSED and creates nothing', async () => {
    const browser = h.browser();
    const before = await h.app.database.db.selectFrom('account').select('id').execute();
    const body = expectError(
      await browser.post('/user-service/create', { email: uniqueEmail(), password: 'secret1' }),
      403,
      'SIGNUP_CLOSED',
    );
    expect(body.error).toBe('Sign-up is closed');
    expect(browser.cookies.size).toBe(0);
    expect(before).toEqual([]);
    expect(await h.app.database.db.selectFrom('account').select('id').execute()).toEqual([]);
  });
});
