import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;

describe('housekeeping', () => {
  const clock = { t: Date.now() };
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, { clock: { now: () => clock.t } });
  });
  afterAll(() => t.close());

  async function count(table: 'session' | 'loginThrottle'): Promise<number> {
    const row = await t.app.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('removes dead sessions and stale login counters, and keeps live ones', async () => {
    const alive = new TestBrowser(t.app);
    const gone = new TestBrowser(t.app);
    await alive.signUp();
    await gone.signUp();
    await gone.post('/user-service/logout');
    await alive.post('/user-service/login', { email: 'nobody@example.com', password: 'wrong-password' });
    expect(await count('session')).toBe(2);
    // One failed login counts for the e-mail and address together, the address, and the e-mail.
    expect(await count('loginThrottle')).toBe(3);

    clock.t += 2 * DAY;
    await alive.post('/user-service/get-token');
    await t.app.background.schedule();
    await t.app.background.drainJobs();

    expect(await count('session')).toBe(1);
    expect(await count('loginThrottle')).toBe(0);
    expect((await alive.get('/user-service/user')).statusCode).toBe(200);
  });
});
