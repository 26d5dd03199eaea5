import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountRepository } from '../../src/db/repositories/account.repository.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

describe('AccountRepository.findById', () => {
  let t: TestApp;
  let ids: string[];

  beforeAll(async () => {
    t = await createTestApp();
    ids = [];
    for (let i = 0; i < 2; i++) ids.push((await new TestBrowser(t.app).signUp()).id);
  });
  afterAll(() => t?.close());

  it('answers the row the query builder reads, for each account, in a transaction too, and nothing for an unknown id', async () => {
    const db = t.app.database.db;
    const accounts = new AccountRepository(db);
    for (const id of ids) {
      const row = await accounts.findById(id);
      expect(row).toEqual(await db.selectFrom('account').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
      expect(row!.id).toBe(id);
      expect(await db.transaction().execute((trx) => new AccountRepository(trx).findById(id))).toEqual(row);
    }
    expect(await accounts.findById('no-such-account')).toBeUndefined();
    // A change is seen at the next call: nothing of the row is kept.
    await db.updateTable('account').set({ lastActiveAt: 42 }).where('id', '=', ids[0]!).execute();
    expect((await accounts.findById(ids[0]!))!.lastActiveAt).toBe(42);
  });
});
