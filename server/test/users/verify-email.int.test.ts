import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';
import type { TestBrowser } from '../helpers/test-browser.js';
import { HOUR, SECOND, expectError, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

const PREFIX = 'http://localhost:3000/verify-email/';

describe('e-mail verification through a real SMTP receiver', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp({ mail: true });
  });
  afterAll(() => h.close());

  /** Signs up in a fresh browser and returns the token from the verification e-mail. */
  async function signUpAndReadToken(): Promise<{ browser: TestBrowser; email: string; token: string }> {
    const browser = h.browser();
    const email = uniqueEmail();
    const since = h.smtp!.messages.length;
    const response = await browser.post('/user-service/create', { email, password: 'secret1' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ user: { email, emailVerified: false }, emailSent: true });
    return { browser, email, token: await nextToken(email, since) };
  }

  async function nextToken(email: string, since: number): Promise<string> {
    const mail = await h.smtp!.next(email, since);
    return SmtpReceiver.link(mail, PREFIX).slice(PREFIX.length);
  }

  it('sends a link on create; the token verifies once, a second use answers 401', async () => {
    const { browser, token } = await signUpAndReadToken();

    expect((await browser.patch('/user-service/verify-email', { emailToken: token })).statusCode).toBe(200);
    expect((await browser.get('/user-service/user')).json()).toMatchObject({ emailVerified: true });

    expectError(await browser.patch('/user-service/verify-email', { emailToken: token }), 401, 'INVALID_TOKEN');
  });

  it('works from any browser, signed in or not', async () => {
    const { browser, token } = await signUpAndReadToken();
    expect((await h.browser().patch('/user-service/verify-email', { emailToken: token })).statusCode).toBe(200);
    expect((await browser.get('/user-service/user')).json()).toMatchObject({ emailVerified: true });
  });

  it('answers 401 for a made-up token and 400 for none', async () => {
    expectError(await h.browser().patch('/user-service/verify-email', { emailToken: 'made-up' }), 401, 'INVALID_TOKEN');
    expectError(await h.browser().patch('/user-service/verify-email', {}), 400, 'VALIDATION_FAILED');
  });

  it('refuses a token older than 24 hours', async () => {
    const { browser, token } = await signUpAndReadToken();
    h.clock.advance(24 * HOUR + SECOND);
    expectError(await h.browser().patch('/user-service/verify-email', { emailToken: token }), 401, 'INVALID_TOKEN');
    await browser.post('/user-service/get-token');
    expect((await browser.get('/user-service/user')).json()).toMatchObject({ emailVerified: false });
  });

  it('resend: 429 within a minute of the last e-mail, then a new link that replaces the old one', async () => {
    const { browser, email, token: first } = await signUpAndReadToken();

    const tooSoon = await browser.patch('/user-service/resend-verify-email');
    expectError(tooSoon, 429, 'COOLDOWN');
    expect(tooSoon.headers['retry-after']).toBe('60');
    h.clock.advance(45 * SECOND);
    const stillTooSoon = await browser.patch('/user-service/resend-verify-email');
    expectError(stillTooSoon, 429, 'COOLDOWN');
    expect(stillTooSoon.headers['retry-after']).toBe('15');
    h.clock.advance(14 * SECOND);
    expectError(await browser.patch('/user-service/resend-verify-email'), 429, 'COOLDOWN');
    h.clock.advance(SECOND);

    const since = h.smtp!.messages.length;
    expect((await browser.patch('/user-service/resend-verify-email')).statusCode).toBe(200);
    const second = await nextToken(email, since);
    expect(second).not.toBe(first);
    expectError(await browser.patch('/user-service/resend-verify-email'), 429, 'COOLDOWN');

    expectError(await browser.patch('/user-service/verify-email', { emailToken: first }), 401, 'INVALID_TOKEN');
    expect((await browser.patch('/user-service/verify-email', { emailToken: second })).statusCode).toBe(200);
  });

  it('resend answers 409 once verified and 401 when signed out', async () => {
    const { browser, token } = await signUpAndReadToken();
    await browser.patch('/user-service/verify-email', { emailToken: token });
    h.clock.advance(61 * SECOND);
    expectError(await browser.patch('/user-service/resend-verify-email'), 409);
    expectError(await h.browser().patch('/user-service/resend-verify-email'), 401, 'UNAUTHENTICATED');
  });
});
