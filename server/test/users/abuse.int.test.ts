import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';
import { expectError, login, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

const RESET_PREFIX = 'http://localhost:3000/reset-password/';

describe('abuse of the account calls', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp({ mail: true, config: { accountRateLimit: 3 } });
  });
  afterAll(() => h.close());

  function from(address: string) {
    const browser = h.browser();
    browser.remoteAddress = address;
    return browser;
  }

  it('evaluates at most 10 passwords of a concurrent burst, then refuses even the right one', async () => {
    const account = await from('10.1.0.1').signUp(uniqueEmail());
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => login(from('10.1.0.2'), account.email, `guess ${i}`)));
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 401 || s === 429).length).toBe(30);
    expectError(await login(from('10.1.0.2'), account.email, account.password), 429, 'LOGIN_THROTTLED');
  });

  it('a lock made from one address does not keep the owner out from another', async () => {
    const account = await from('10.2.0.1').signUp(uniqueEmail());
    for (let i = 0; i < 10; i++) expectError(await login(from('10.2.0.66'), account.email, `guess ${i}`), 401, 'INVALID_CREDENTIALS');
    expectError(await login(from('10.2.0.66'), account.email, account.password), 429, 'LOGIN_THROTTLED');
    expect((await login(from('10.2.0.1'), account.email, account.password)).statusCode).toBe(200);
  });

  it('ends a session that guesses its current password too often', async () => {
    const browser = from('10.3.0.1');
    await browser.signUp(uniqueEmail());
    for (let i = 0; i < 10; i++) {
      expectError(
        await browser.patch('/user-service/change-password', { oldPassword: `guess ${i}`, newPassword: 'new secret' }),
        401,
        'WRONG_PASSWORD',
      );
    }
    expectError(
      await browser.patch('/user-service/change-password', { oldPassword: 'correct horse', newPassword: 'new secret' }),
      429,
      'LOGIN_THROTTLED',
    );
    expectError(await browser.get('/user-service/user'), 401);
  });

  it('a reset link mailed before a password change is void after it', async () => {
    const browser = from('10.4.0.1');
    const account = await browser.signUp(uniqueEmail(), 'old secret');
    const since = h.smtp!.messages.length;
    expect((await from('10.4.0.2').patch('/user-service/send-password-reset', { email: account.email })).statusCode).toBe(200);
    const token = SmtpReceiver.link(await h.smtp!.next(account.email, since), RESET_PREFIX).slice(RESET_PREFIX.length);

    expect(
      (await browser.patch('/user-service/change-password', { oldPassword: 'old secret', newPassword: 'owner secret' })).statusCode,
    ).toBe(200);
    expectError(
      await from('10.4.0.3').patch('/user-service/reset-password', { passwordToken: token, password: 'attacker pw' }),
      401,
      'INVALID_TOKEN',
    );
    expect((await login(from('10.4.0.1'), account.email, 'owner secret')).statusCode).toBe(200);
  });

  it('limits sign-ups per client address and hour', async () => {
    for (let i = 0; i < 3; i++)
      expect((await from('10.5.0.1').post('/user-service/create', { email: uniqueEmail(), password: 'secret1' })).statusCode).toBe(201);
    const refused = await from('10.5.0.1').post('/user-service/create', { email: uniqueEmail(), password: 'secret1' });
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('10.5.0.2').post('/user-service/create', { email: uniqueEmail(), password: 'secret1' })).statusCode).toBe(201);
    h.clock.advance(60 * 60_000);
    expect((await from('10.5.0.1').post('/user-service/create', { email: uniqueEmail(), password: 'secret1' })).statusCode).toBe(201);
  });

  it('limits reset attempts per client address', async () => {
    for (let i = 0; i < 3; i++) {
      expectError(
        await from('10.6.0.1').patch('/user-service/reset-password', { passwordToken: `made-up-${i}`, password: 'whatever1' }),
        401,
      );
    }
    expectError(
      await from('10.6.0.1').patch('/user-service/reset-password', { passwordToken: 'made-up', password: 'whatever1' }),
      429,
      'RATE_LIMITED',
    );
  });
});
