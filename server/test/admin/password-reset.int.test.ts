import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUsersApp, MINUTE, type UsersHarness } from '../users/support.js';
import { accountOf, type SignedUp } from './support.js';

describe('admin area: password reset by e-mail', () => {
  let h: UsersHarness;
  let admin: SignedUp;
  let bob: SignedUp;

  beforeAll(async () => {
    // The per-address limit is on: an administrator's resets are not counted against it.
    h = await startUsersApp({ mail: true, config: { accountRateLimit: 3 } });
    admin = await accountOf(h, 'admin');
    bob = await accountOf(h, 'user');
  });
  afterAll(() => h.close());

  it('mails the normal reset link and answers no link, under the per-account cooldown only', async () => {
    const since = h.smtp!.messages.length;
    const reset = await admin.browser.post(`/admin-service/users/${bob.id}/password-reset`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ emailSent: true, link: null });
    const mail = await h.smtp!.next(bob.email, since);
    const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const used = await h.browser().patch('/user-service/reset-password', { passwordToken: token, password: 'brand new one' });
    expect(used.statusCode, used.body).toBe(200);

    expect((await admin.browser.post(`/admin-service/users/${bob.id}/password-reset`)).json()).toMatchObject({ code: 'COOLDOWN' });
    const carol = await accountOf(h, 'user');
    // Three sign-ups used up the address's hourly allowance; four resets from it still go out.
    for (const target of [bob, carol, bob]) {
      if (target === bob) h.clock.advance(MINUTE);
      const again = await admin.browser.post(`/admin-service/users/${target.id}/password-reset`);
      expect(again.statusCode, again.body).toBe(200);
    }
    const log = (await admin.browser.get('/user-service/activity')).json<{ events: { type: string }[] }>().events;
    expect(log.filter((e) => e.type === 'admin-password-reset')).toHaveLength(4);
  });
});
