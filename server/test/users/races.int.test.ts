import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';
import { SECOND, login, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

const RESET_PREFIX = 'http://localhost:3000/reset-password/';

/** The database, not one process's memory, decides each of these; concurrent requests must agree. */
describe('concurrent requests', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp({ mail: true });
  });
  afterAll(() => h.close());

  const statuses = async (requests: Promise<{ statusCode: number }>[]): Promise<number[]> =>
    (await Promise.all(requests)).map((r) => r.statusCode).sort();

  it('only one of several sign-ups with one e-mail wins', async () => {
    const email = uniqueEmail();
    const variants = [email, email.toUpperCase(), email, ` ${email}`, email.toLowerCase()];
    const results = await statuses(variants.map((e) => h.browser().post('/user-service/create', { email: e, password: 'secret1' })));
    expect(results).toEqual([201, 409, 409, 409, 409]);
  });

  it('only one of several reset requests within the cooldown sends an e-mail', async () => {
    const account = await h.browser().signUp(uniqueEmail());
    const since = h.smtp!.messages.length;
    const results = await statuses(
      Array.from({ length: 5 }, () => h.browser().patch('/user-service/send-password-reset', { email: account.email })),
    );
    expect(results).toEqual([200, 429, 429, 429, 429]);
    await h.smtp!.next(account.email, since);
    expect(h.smtp!.messages.slice(since).filter((m) => m.to.includes(account.email.toLowerCase()))).toHaveLength(1);
  });

  it('a reset token is used once even when presented concurrently', async () => {
    const account = await h.browser().signUp(uniqueEmail());
    h.clock.advance(61 * SECOND);
    const since = h.smtp!.messages.length;
    await h.browser().patch('/user-service/send-password-reset', { email: account.email });
    const token = SmtpReceiver.link(await h.smtp!.next(account.email, since), RESET_PREFIX).slice(RESET_PREFIX.length);

    const passwords = ['first pick', 'second pick', 'third pick'];
    const responses = await Promise.all(
      passwords.map((password) => h.browser().patch('/user-service/reset-password', { passwordToken: token, password })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 401, 401]);
    const winner = passwords[responses.findIndex((r) => r.statusCode === 200)]!;
    expect((await login(h.browser(), account.email, winner)).statusCode).toBe(200);
  });

  it('concurrent refreshes of one token from one browser all get a pair, and the session lives on', async () => {
    const browser = h.browser();
    await browser.signUp(uniqueEmail());
    const results = await statuses(Array.from({ length: 3 }, () => browser.post('/user-service/get-token')));
    expect(results).toEqual([200, 200, 200]);
    expect((await browser.get('/user-service/user')).statusCode).toBe(200);
    expect((await browser.post('/user-service/get-token')).statusCode).toBe(200);
  });
});
