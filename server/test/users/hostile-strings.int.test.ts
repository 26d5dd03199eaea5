import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, login, snapshotTables, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

const SQL_LOOKING = ["' OR 1=1 --", "admin'--", '"; DROP TABLE account; --', "' UNION SELECT password_hash FROM account --"];

describe('unicode, mixed-case and SQL-looking strings', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  it('treats unicode e-mails case-insensitively, keeping the address as typed', async () => {
    const email = `Jörg.Ünïcødé-${Date.now()}@Exämple.com`;
    const created = await h.browser().post('/user-service/create', { email, password: 'pässwörd🔑' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ user: { email } });

    expect((await login(h.browser(), email.toLowerCase(), 'pässwörd🔑')).statusCode).toBe(200);
    expect((await login(h.browser(), email.toUpperCase(), 'pässwörd🔑')).statusCode).toBe(200);
    expectError(await login(h.browser(), email, 'PÄSSWÖRD🔑'), 401);
    expectError(await h.browser().post('/user-service/create', { email: email.toUpperCase(), password: 'secret1' }), 409, 'EMAIL_EXISTS');
  });

  it('treats the composed and decomposed forms of an accented address as one', async () => {
    const composed = `ren\u00e9-${Date.now()}@example.com`;
    const decomposed = composed.normalize('NFD');
    expect(decomposed).not.toBe(composed);
    await h.browser().signUp(composed, 'secret1');
    expect((await login(h.browser(), decomposed, 'secret1')).statusCode).toBe(200);
    expectError(await h.browser().post('/user-service/create', { email: decomposed, password: 'secret1' }), 409, 'EMAIL_EXISTS');
  });

  it('matches passwords typed in either unicode normal form', async () => {
    const email = uniqueEmail();
    await h.browser().signUp(email, 'caf\u00e9 au lait');
    expect((await login(h.browser(), email, 'cafe\u0301 au lait')).statusCode).toBe(200);
  });

  it.each(SQL_LOOKING)('login with %j as e-mail or password is an ordinary 401', async (text) => {
    const account = await h.browser().signUp(uniqueEmail());
    const before = await snapshotTables(h.app);
    expectError(await login(h.browser(), text, text), 401, 'INVALID_CREDENTIALS');
    expectError(await login(h.browser(), account.email, text), 401, 'INVALID_CREDENTIALS');
    const after = await snapshotTables(h.app);
    // Only the throttle counters moved.
    expect({ ...after, loginThrottle: [] }).toEqual({ ...before, loginThrottle: [] });
    expect((await login(h.browser(), account.email, account.password)).statusCode).toBe(200);
  });

  it.each(SQL_LOOKING)('tokens %j answer 401 and e-mail %j is unknown', async (text) => {
    const before = await snapshotTables(h.app);
    expectError(await h.browser().patch('/user-service/verify-email', { emailToken: text }), 401, 'INVALID_TOKEN');
    expectError(await h.browser().patch('/user-service/reset-password', { passwordToken: text, password: 'secret1' }), 401);
    expect(await snapshotTables(h.app)).toEqual(before);
  });

  it('stores an SQL-looking but well-formed address verbatim', async () => {
    const email = `o'brien--${Date.now()}@example.com`;
    expect((await h.browser().post('/user-service/create', { email, password: "' OR 1=1 --" })).statusCode).toBe(201);
    const signedIn = await login(h.browser(), email, "' OR 1=1 --");
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { email } });
  });

  it('refuses NUL and other control characters with 400 instead of failing inside the database', async () => {
    const account = await h.browser().signUp(uniqueEmail());
    const before = await snapshotTables(h.app);
    const nul = `x\u0000${account.email}`;
    expectError(await login(h.browser(), nul, 'secret1'), 400, 'VALIDATION_FAILED');
    expectError(await h.browser().post('/user-service/create', { email: nul, password: 'secret1' }), 400, 'VALIDATION_FAILED');
    expectError(await h.browser().patch('/user-service/send-password-reset', { email: nul }), 400, 'VALIDATION_FAILED');
    expectError(await h.browser().patch('/user-service/verify-email', { emailToken: 'a\u0000b' }), 400, 'VALIDATION_FAILED');
    expectError(
      await h.browser().post('/user-service/create', { email: `bell\u0007${Date.now()}@example.com`, password: 'x\u0000yyyyy' }),
      400,
    );
    expect(await snapshotTables(h.app)).toEqual(before);
  });
});
