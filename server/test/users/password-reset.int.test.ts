import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';
import { HOUR, SECOND, expectError, login, snapshotTables, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

const PREFIX = 'http://localhost:3000/reset-password/';

describe('password reset through a real SMTP receiver', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp({ mail: true });
  });
  afterAll(() => h.close());

  async function signUp(): Promise<{ email: string; password: string }> {
    const email = uniqueEmail('Reset');
    await h.browser().signUp(email, 'old secret');
    return { email, password: 'old secret' };
  }

  /** Requests a reset (e-mail in another letter case, as users type it) and reads the token it mails. */
  async function requestReset(email: string): Promise<string> {
    const since = h.smtp!.messages.length;
    const response = await h.browser().patch('/user-service/send-password-reset', { email: email.toUpperCase() });
    expect(response.statusCode, response.body).toBe(200);
    const mail = await h.smtp!.next(email, since);
    return SmtpReceiver.link(mail, PREFIX).slice(PREFIX.length);
  }

  it('resets once with the mailed token: old password fails, new works, every session ends', async () => {
    const account = await signUp();
    const elsewhere = h.browser();
    await login(elsewhere, account.email, account.password);
    const token = await requestReset(account.email);

    const resetter = h.browser();
    expect((await resetter.patch('/user-service/reset-password', { passwordToken: token, password: 'new secret' })).statusCode).toBe(200);
    expectError(
      await resetter.patch('/user-service/reset-password', { passwordToken: token, password: 'other secret' }),
      401,
      'INVALID_TOKEN',
    );

    expectError(await elsewhere.get('/user-service/user'), 401);
    expectError(await elsewhere.post('/user-service/get-token'), 401);
    expectError(await login(h.browser(), account.email, account.password), 401);
    const signedIn = await login(h.browser(), account.email, 'new secret');
    expect(signedIn.statusCode).toBe(200);
    // Reading the e-mail proved the address.
    expect(signedIn.json()).toMatchObject({ user: { emailVerified: true } });
  });

  it('answers 404 USER_NOT_FOUND for an unknown e-mail', async () => {
    expectError(await h.browser().patch('/user-service/send-password-reset', { email: uniqueEmail() }), 404, 'USER_NOT_FOUND');
  });

  it('answers 429 within a minute of the last request, and sends again after it', async () => {
    const account = await signUp();
    const first = await requestReset(account.email);
    expectError(await h.browser().patch('/user-service/send-password-reset', { email: account.email }), 429, 'COOLDOWN');
    h.clock.advance(60 * SECOND);
    const second = await requestReset(account.email);

    // Only the newest link works.
    expectError(await h.browser().patch('/user-service/reset-password', { passwordToken: first, password: 'new secret' }), 401);
    expect((await h.browser().patch('/user-service/reset-password', { passwordToken: second, password: 'new secret' })).statusCode).toBe(
      200,
    );
  });

  it('refuses a token older than one hour and changes nothing', async () => {
    const account = await signUp();
    const token = await requestReset(account.email);
    h.clock.advance(HOUR + SECOND);
    const before = await snapshotTables(h.app);
    expectError(
      await h.browser().patch('/user-service/reset-password', { passwordToken: token, password: 'new secret' }),
      401,
      'INVALID_TOKEN',
    );
    expect(await snapshotTables(h.app)).toEqual(before);
    expect((await login(h.browser(), account.email, account.password)).statusCode).toBe(200);
  });

  it('does not accept a verification token as a reset token', async () => {
    const email = uniqueEmail();
    const since = h.smtp!.messages.length;
    await h.browser().signUp(email, 'old secret');
    const verifyPrefix = 'http://localhost:3000/verify-email/';
    const token = SmtpReceiver.link(await h.smtp!.next(email, since), verifyPrefix).slice(verifyPrefix.length);
    expectError(await h.browser().patch('/user-service/reset-password', { passwordToken: token, password: 'new secret' }), 401);
    expect((await h.browser().patch('/user-service/verify-email', { emailToken: token })).statusCode).toBe(200);
  });

  it('answers 400 for an invalid new password and leaves the token usable', async () => {
    const account = await signUp();
    const token = await requestReset(account.email);
    expectError(
      await h.browser().patch('/user-service/reset-password', { passwordToken: token, password: '123' }),
      400,
      'VALIDATION_FAILED',
    );
    expect((await h.browser().patch('/user-service/reset-password', { passwordToken: token, password: 'new secret' })).statusCode).toBe(
      200,
    );
  });
});
