import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';
import { startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

describe('with APP_URL on https', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp({
      mail: true,
      config: {
        http: {
          port: 0,
          host: '127.0.0.1',
          appUrl: 'https://drive.example.com',
          secureCookies: true,
          trustProxy: false,
          bodyTimeoutMs: 60_000,
          idleTimeoutMs: 300_000,
        },
      },
    });
  });
  afterAll(() => h.close());

  it('marks the session cookies Secure', async () => {
    const response = await h.browser().post('/user-service/create', { email: uniqueEmail(), password: 'secret1' });
    expect(response.cookies.map((c) => [c.name, c.secure])).toEqual([
      ['access-token', true],
      ['refresh-token', true],
    ]);
  });

  it('mails verification and reset links under APP_URL, to the address as typed', async () => {
    const email = uniqueEmail('Mixed.Case');
    let since = h.smtp!.messages.length;
    await h.browser().signUp(email);
    const verify = await h.smtp!.next(email, since);
    expect(verify.to).toEqual([email]);
    expect(verify.raw).toMatch(/^Subject: Verify your Nimbus e-mail address/m);
    expect(SmtpReceiver.link(verify, 'https://drive.example.com/verify-email/')).toMatch(
      /^https:\/\/drive\.example\.com\/verify-email\/[\w-]{40,}$/,
    );

    h.clock.advance(61_000);
    since = h.smtp!.messages.length;
    expect((await h.browser().patch('/user-service/send-password-reset', { email: email.toLowerCase() })).statusCode).toBe(200);
    const reset = await h.smtp!.next(email, since);
    expect(reset.to).toEqual([email]);
    expect(reset.raw).toMatch(/^Subject: Reset your Nimbus password/m);
    expect(SmtpReceiver.link(reset, 'https://drive.example.com/reset-password/')).toMatch(
      /^https:\/\/drive\.example\.com\/reset-password\/[\w-]{40,}$/,
    );
  });
});
