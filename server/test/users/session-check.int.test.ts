import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionRepository, type SessionRow } from '../../src/db/repositories/session.repository.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

const NOW = Date.now();

describe('the session check of every signed-in request, answered in batches', () => {
  let t: TestApp;
  let sut: SessionRepository;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    t = await createTestApp();
    sut = new SessionRepository(t.app.database.db);
    alice = (await new TestBrowser(t.app).signUp()).id;
    bob = (await new TestBrowser(t.app).signUp()).id;
  });
  afterAll(() => t.close());

  let n = 0;
  async function session(accountId: string, changes: Partial<SessionRow> = {}): Promise<string> {
    const id = `check-${++n}`;
    await sut.insert({
      id,
      accountId,
      browserId: 'b',
      refreshHash: `h${n}`,
      previousRefreshHash: null,
      createdAt: NOW,
      lastUsedAt: NOW,
      expiresAt: NOW + 60_000,
      revokedAt: null,
      ...changes,
    });
    return id;
  }

  it('answers each of many concurrent checks as it would alone', async () => {
    const cases: { id: string; accountId: string; active: boolean }[] = [];
    for (let i = 0; i < 40; i++) cases.push({ id: await session(alice), accountId: alice, active: true });
    cases.push({ id: await session(alice, { revokedAt: NOW - 1 }), accountId: alice, active: false });
    cases.push({ id: await session(alice, { expiresAt: NOW }), accountId: alice, active: false });
    cases.push({ id: await session(bob), accountId: alice, active: false });
    cases.push({ id: 'no-such-session', accountId: alice, active: false });
    const bobs = await session(bob);
    cases.push({ id: bobs, accountId: bob, active: true }, { id: bobs, accountId: bob, active: true });

    const answers = await Promise.all(cases.map((c) => sut.activeDriveVersion(c.id, c.accountId, NOW)));
    expect(answers.map((a) => a !== null)).toEqual(cases.map((c) => c.active));
    for (const [i, c] of cases.entries()) {
      expect(await sut.isActive(c.id, c.accountId, NOW), c.id).toBe(c.active);
      if (c.active) expect(answers[i]).toBeTypeOf('number');
    }
  });

  it('sees a revocation committed before the check, and the drive version of the moment', async () => {
    const id = await session(alice);
    const before = await sut.activeDriveVersion(id, alice, NOW);
    await t.app.database.db
      .insertInto('folder')
      .values({
        id: `folder-${id}`,
        ownerId: alice,
        parentId: null,
        name: 'x',
        nameKey: 'x',
        createdAt: NOW,
        updatedAt: NOW,
        trashedAt: null,
        trashedVia: null,
      })
      .execute();
    expect(await sut.activeDriveVersion(id, alice, NOW)).toBeGreaterThan(before!);
    await sut.revokeAllOfAccount(alice, NOW);
    expect(await sut.activeDriveVersion(id, alice, NOW)).toBeNull();
  });
});
