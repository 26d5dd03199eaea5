import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashingLoad } from '../../src/security/password.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { login, startUsersApp, uniqueEmail, type UsersHarness } from './support.js';

const FLOOD = 120;

/** An anonymous login flood from one client must not queue everyone else's sign-in behind it. */
describe('a login flood from one client', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    // Hashes slow enough that the flood's requests arrive while the first ones are still being checked.
    h = await startUsersApp({ config: { passwordHashCost: 14 } });
  });
  afterAll(() => h.close());

  function from(address: string): TestBrowser {
    const browser = new TestBrowser(h.app);
    browser.remoteAddress = address;
    return browser;
  }

  it('is answered 429 beyond two checks at a time, and another client’s sign-in is not queued behind it', async () => {
    const account = await from('198.51.100.30').signUp(uniqueEmail());
    // Every address of one /64 is one client.
    const flooders = Array.from({ length: FLOOD }, (_, i) => from(`2001:db8:30:1:${(i + 1).toString(16)}::1`));
    let deepestQueue = 0;
    const sampler = setInterval(() => {
      const { active, pending } = hashingLoad();
      deepestQueue = Math.max(deepestQueue, active + pending);
    }, 1);

    const flood = flooders.map((f) => login(f, uniqueEmail('nobody'), 'guess'));
    const owner = login(from('198.51.100.31'), account.email, account.password);
    const [floodAnswers, ownerAnswer] = await Promise.all([Promise.all(flood), owner]);
    clearInterval(sampler);

    expect(ownerAnswer.statusCode).toBe(200);
    const byStatus = (status: number) => floodAnswers.filter((r: LightMyRequestResponse) => r.statusCode === status);
    expect(byStatus(401).length + byStatus(429).length).toBe(FLOOD);
    expect(byStatus(429).length).toBeGreaterThan(FLOOD / 2);
    for (const refused of byStatus(429)) {
      expect(refused.json()).toMatchObject({ code: 'LOGIN_THROTTLED' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The owner's check never waited behind more than the flood's two.
    expect(deepestQueue).toBeLessThanOrEqual(3);
  });

  it('the refused attempts still count, so a burst gets no more tries than a sequence', async () => {
    const account = await from('198.51.100.32').signUp(uniqueEmail());
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => login(from('203.0.113.30'), account.email, `guess ${i}`)));
    expect(burst.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(10);
    expect((await login(from('203.0.113.30'), account.email, account.password)).statusCode).toBe(429);
    expect((await login(from('203.0.113.31'), account.email, account.password)).statusCode).toBe(200);
  });
});
