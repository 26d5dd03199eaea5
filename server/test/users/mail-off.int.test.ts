import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, snapshotTables, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

describe('with e-mail off (SMTP_URL unset)', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp({ mail: false });
  });
  afterAll(() => h.close());

  it('creates accounts already verified and says no e-mail was sent', async () => {
    const response = await h.browser().post('/user-service/create', { email: uniqueEmail(), password: 'secret1' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ user: { emailVerified: true }, emailSent: false });
    expect(await h.app.database.db.selectFrom('accountToken').select('tokenHash').execute()).toEqual([]);
  });

  it('answers 403 EMAIL_DISABLED to resend-verify-email', async () => {
    const browser = h.browser();
    await browser.signUp(uniqueEmail());
    expectError(await browser.patch('/user-service/resend-verify-email'), 403, 'EMAIL_DISABLED');
  });

  it('answers 403 EMAIL_DISABLED to send-password-reset, for known and unknown e-mails alike', async () => {
    const account = await h.browser().signUp(uniqueEmail());
    const before = await snapshotTables(h.app);
    expectError(await h.browser().patch('/user-service/send-password-reset', { email: account.email }), 403, 'EMAIL_DISABLED');
    expectError(await h.browser().patch('/user-service/send-password-reset', { email: uniqueEmail() }), 403, 'EMAIL_DISABLED');
    expect(await snapshotTables(h.app)).toEqual(before);
  });
});
