import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

/** An SMTP URL nobody listens on: a port taken from the OS and released again. */
async function deadSmtpUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `smtp://127.0.0.1:${port}`;
}

describe('when the SMTP server cannot be reached', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp({ config: { mail: { smtpUrl: await deadSmtpUrl(), from: 'nimbus@example.com' } } });
  });
  afterAll(() => h.close());

  it('still creates the account, unverified, and says no e-mail was sent', async () => {
    const response = await h.browser().post('/user-service/create', { email: uniqueEmail(), password: 'secret1' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ user: { emailVerified: false }, emailSent: false });
  });

  it('answers 503 to resend and reset without starting the cooldown, so the user may retry at once', async () => {
    const browser = h.browser();
    const account = await browser.signUp(uniqueEmail());
    expectError(await browser.patch('/user-service/resend-verify-email'), 503, 'UNAVAILABLE');
    expectError(await browser.patch('/user-service/resend-verify-email'), 503, 'UNAVAILABLE');
    expectError(await h.browser().patch('/user-service/send-password-reset', { email: account.email }), 503, 'UNAVAILABLE');
    expectError(await h.browser().patch('/user-service/send-password-reset', { email: account.email }), 503, 'UNAVAILABLE');
  });
});
