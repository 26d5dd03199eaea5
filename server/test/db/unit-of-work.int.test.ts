import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnitOfWork } from '../../src/db/unit-of-work.js';
import { newId } from '../../src/security/ids.js';
import { createTestApp, testDialect, type TestApp } from '../helpers/test-app.js';
import { fileRow } from '../helpers/rows.js';
import { TestBrowser } from '../helpers/test-browser.js';

describe('unit of work', () => {
  let t: TestApp;
  let uow: UnitOfWork;
  let ownerId: string;

  beforeAll(async () => {
    t = await createTestApp();
    uow = new UnitOfWork(t.app.database.db, t.app.database.dialect);
    ownerId = (await new TestBrowser(t.app).signUp()).id;
  });
  afterAll(() => t.close());

  const stored = async (names: string[]) =>
    (await t.app.database.db.selectFrom('file').select('filename').where('filename', 'in', names).execute()).map((r) => r.filename).sort();

  it('undoes a failing unit alone while the units started with it commit', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `together-${i}.txt`);
    const results = await Promise.allSettled(
      names.map((name, i) =>
        uow.run(async (r) => {
          await r.files.insert(fileRow(ownerId, name));
          const before = await r.db.selectFrom('file').select('filename').where('filename', 'like', 'together-%').execute();
          if (i % 4 === 3) throw new Error(`unit ${i} fails`);
          return before.length;
        }),
      ),
    );

    const kept = names.filter((_, i) => i % 4 !== 3);
    expect(await stored(names)).toEqual([...kept].sort());
    results.forEach((result, i) => {
      if (i % 4 === 3) expect(result).toEqual({ status: 'rejected', reason: new Error(`unit ${i} fails`) });
      // On SQLite they share one transaction: a unit sees every one before it that did not fail.
      else if (testDialect() === 'sqlite') expect(result).toEqual({ status: 'fulfilled', value: i - Math.floor(i / 4) + 1 });
      else expect(result.status).toBe('fulfilled');
    });
  });

  it('keeps a constraint error of one unit from the others', async () => {
    const duplicate = fileRow(ownerId, 'first.txt');
    const results = await Promise.allSettled([
      uow.run((r) => r.files.insert(duplicate)),
      uow.run((r) => r.files.insert({ ...duplicate, filename: 'second.txt', storageKey: newId() })),
      uow.run((r) => r.files.insert(fileRow(ownerId, 'third.txt'))),
    ]);
    const [first, second, third] = results.map((r) => r.status);
    expect(third).toBe('fulfilled');
    const kept = await stored(['first.txt', 'second.txt', 'third.txt']);
    if (testDialect() === 'sqlite') {
      // In arrival order: the first of the two takes the id.
      expect([first, second]).toEqual(['fulfilled', 'rejected']);
      expect(kept).toEqual(['first.txt', 'third.txt']);
    } else {
      // Side by side: either of the two may take it.
      expect([first, second].sort()).toEqual(['fulfilled', 'rejected']);
      expect(kept).toEqual([first === 'fulfilled' ? 'first.txt' : 'second.txt', 'third.txt']);
    }
  });

  it.skipIf(testDialect() !== 'sqlite')('fails every unit of a group whose commit fails, and keeps none of their rows', async () => {
    const names = ['group-a.txt', 'group-b.txt', 'group-c.txt'];
    // Room for all three to join one group however slow a busy machine runs the first.
    const grouped = new UnitOfWork(t.app.database.db, t.app.database.dialect, 60_000);
    const results = await Promise.allSettled([
      grouped.run((r) => r.files.insert(fileRow(ownerId, names[0]!))),
      grouped.run(async (r) => {
        // A foreign key checked only at COMMIT: the commit of the whole group fails.
        await sql`pragma defer_foreign_keys = on`.execute(r.db);
        await r.files.insert(fileRow(ownerId, names[1]!, { folderId: newId() }));
      }),
      grouped.run((r) => r.files.insert(fileRow(ownerId, names[2]!))),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await stored(names)).toEqual([]);

    // The next unit commits in a group of its own.
    await uow.run((r) => r.files.insert(fileRow(ownerId, 'after.txt')));
    expect(await stored(['after.txt'])).toEqual(['after.txt']);
  });
});
