import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUsersApp, uniqueEmail, type UsersHarness } from '../users/support.js';

async function roles(h: UsersHarness): Promise<Record<string, string>> {
  const rows = await h.app.database.db.selectFrom('account').select(['email', 'role']).execute();
  return Object.fromEntries(rows.map((r) => [r.email, r.role]));
}

describe('the first account of a server is its administrator', () => {
  let h: UsersHarness;
  beforeAll(async () => {
    h = await startUsersApp();
  });
  afterAll(() => h.close());

  it('makes the first account admin and the next ones users', async () => {
    const first = h.browser();
    const firstEmail = uniqueEmail('first');
    await first.signUp(firstEmail);
    const second = h.browser();
    const secondEmail = uniqueEmail('second');
    await second.signUp(secondEmail);
    expect(await roles(h)).toEqual({ [firstEmail]: 'admin', [secondEmail]: 'user' });
    expect((await first.get('/user-service/user')).json()).toMatchObject({ role: 'admin' });
    expect((await second.get('/user-service/user')).json()).toMatchObject({ role: 'user' });
  });
});

describe('racing first sign-ups', () => {
  it.each([2, 8])('%i at once: exactly one becomes admin', async (n) => {
    const h = await startUsersApp();
    try {
      const answers = await Promise.all(
        Array.from({ length: n }, () => h.browser().post('/user-service/create', { email: uniqueEmail('racer'), password: 'secret1' })),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(Array(n).fill(201));
      const admins = Object.values(await roles(h)).filter((role) => role === 'admin');
      expect(admins).toHaveLength(1);
      expect(answers.filter((a) => a.json<{ user: { role: string } }>().user.role === 'admin')).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it('an account inserted later with an earlier time does not become a second admin', async () => {
    const h = await startUsersApp();
    try {
      const first = uniqueEmail('first');
      await h.browser().signUp(first);
      // A racing sign-up whose clock read came first but whose insert landed second.
      h.clock.advance(-60_000);
      const late = uniqueEmail('late');
      await h.browser().signUp(late);
      expect(await roles(h)).toEqual({ [first]: 'admin', [late]: 'user' });
    } finally {
      await h.close();
    }
  });
});
