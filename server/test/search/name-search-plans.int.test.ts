import type { FileDto } from '@nimbus/common';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.js';
import { FileRepository, type FileRow } from '../../src/db/repositories/file.repository.js';
import { listFiles } from '../helpers/drive.js';
import { fileRow } from '../helpers/rows.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, testDialect, type TestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;

function row(ownerId: string, filename: string, uploadedAt: number, trashed = false): FileRow {
  return fileRow(ownerId, filename, { contentType: 'application/pdf', uploadedAt, trashedAt: trashed ? uploadedAt : null });
}

async function searchAll(browser: TestBrowser, search: string, extra: Record<string, string> = {}): Promise<string[]> {
  const names: string[] = [];
  let last: FileDto | undefined;
  for (;;) {
    const query: Record<string, string> = { search, sortBy: 'date_desc', limit: '100', ...extra };
    if (last) Object.assign(query, { startAt: 'true', startAtDate: last.uploadDate, startAtName: last.filename, startAtId: last._id });
    const page = await listFiles(browser, query);
    names.push(...page.map((f) => f.filename));
    if (page.length < 100) return names;
    last = page.at(-1);
  }
}

// A term in more than 2,000 names is matched row by row on SQLite, a rarer one through the trigram
// index: both plans must give the same answers as a plain substring test.
describe('name search, common and rare terms', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let rows: FileRow[];

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    const bob = new TestBrowser(t.app);
    const { id: ownerId } = await alice.signUp();
    const { id: otherId } = await bob.signUp();
    const files = new FileRepository(t.app.database.db, t.app.database.dialect);
    rows = [];
    // Enough files that a term of one or two characters is looked up in the index (SAMPLE).
    for (let i = 0; i < 4200; i++) {
      const name = i % 10 === 9 ? `Receipt ${i}.pdf` : `Invoice-${i}.pdf`;
      rows.push(row(ownerId, name, 1_700_000_000_000 + (i % 97) * DAY + i, i % 50 === 7));
    }
    // Rare characters and pairs: at the start, in the middle and at the end of a name, and whole names.
    const rare = ['Ωmega.txt', 'fizq', 'AQZB.txt', 'ab', 'x', 'Quote "ab".txt', 'Smörgås.pdf', 'old-fizq.txt', '日本語.md'];
    rare.forEach((name, i) => rows.push(row(ownerId, name, 1_600_000_000_000 + i * DAY, name.startsWith('old'))));
    for (const r of rows) await files.insert(r);
    // Another account's invoices count towards how common the term is, never towards the answer.
    for (let i = 0; i < 30; i++) await files.insert(row(otherId, `Invoice-bob-${i}.pdf`, 1_700_000_000_000 + i));
    await files.insert(row(otherId, 'bob-zq.txt', 1_700_000_000_000));
  }, 180_000);
  afterAll(() => t.close());

  const expected = (term: string, trashed = false) =>
    rows
      .filter((r) => r.nameKey.includes(term) && (r.trashedAt !== null) === trashed)
      .sort((a, b) => b.uploadedAt - a.uploadedAt)
      .map((r) => r.filename);

  it('finds every match of a common term, in order, page after page', async () => {
    const names = await searchAll(alice, 'invoice');
    expect(names.length).toBeGreaterThan(2000);
    expect(names).toEqual(expected('invoice'));
  }, 60_000);

  it('finds every match of a rare term', async () => {
    expect(await searchAll(alice, 'receipt')).toEqual(expected('receipt'));
    expect(await searchAll(alice, 'RECEIPT 2')).toEqual(expected('receipt 2'));
  });

  it('treats a common term as a substring, case-insensitively, in the trash too', async () => {
    expect(await searchAll(alice, 'NVOICE-1')).toEqual(expected('nvoice-1'));
    expect(await searchAll(alice, 'invoice', { trashMode: 'true' })).toEqual(expected('invoice', true));
  });

  it('finds every name holding a rare character or pair, wherever it stands in the name', async () => {
    for (const term of ['zq', 'qz', 'ω', 'ab', 'x', 'q', 'ö', 'ås', '本', '"a', 'me', 'z']) {
      expect(await searchAll(alice, term), term).toEqual(expected(term));
    }
    expect(await searchAll(alice, 'zq', { trashMode: 'true' })).toEqual(expected('zq', true));
    expect(await searchAll(alice, 'ZQ')).toEqual(['fizq']);
  });

  it('finds every name holding a common character or pair, and nothing for one no name holds', async () => {
    for (const term of ['in', 'e', '9', '.', '-1', 'pd', 'jj', 'й', '\u{10ffff}']) {
      expect(await searchAll(alice, term), term).toEqual(expected(term));
    }
  }, 60_000);

  it('finds nothing for a term holding a control character, though the index marks the ends of names with one', async () => {
    for (const term of ['q\u0001', '\u0001', 'izq\u0001', 'a\u0001\u0001'])
      expect(await searchAll(alice, term), JSON.stringify(term)).toEqual([]);
  });

  it('follows renames in the index for short terms', async () => {
    const files = new FileRepository(t.app.database.db, t.app.database.dialect);
    const target = rows.find((r) => r.filename === 'fizq')!;
    await files.rename(target.id, 'fivw', 'fivw', target.uploadedAt);
    try {
      expect(await searchAll(alice, 'zq')).toEqual(expected('zq').filter((n) => n !== 'fizq'));
      expect(await searchAll(alice, 'vw')).toEqual(['fivw']);
    } finally {
      await files.rename(target.id, 'fizq', 'fizq', target.uploadedAt);
    }
    expect(await searchAll(alice, 'vw')).toEqual([]);
    expect(await searchAll(alice, 'zq')).toEqual(expected('zq'));
  });

  // A rare pair used to read every file of the drive on the server's only thread (seconds at 10^6 files).
  it.skipIf(testDialect() !== 'sqlite')('looks a rare pair up in the trigram index, and walks the drive for a common one', async () => {
    const plans = await listPlans(rows[0]!.ownerId, ['zq', 'in']);
    expect(plans.get('zq')).toMatch(/SCAN file_name_fts VIRTUAL TABLE/);
    expect(plans.get('zq')).toMatch(/SEARCH file USING INTEGER PRIMARY KEY/);
    expect(plans.get('in')).not.toMatch(/file_name_fts/);
  });

  // Files of one folder upload share their millisecond: an index without the name key made SQLite
  // sort each such run aside before it could stop at a page (27-32 ms at 10^6 files, not 0.6).
  /** The query plan SQLite chose for the last query of a list of the owner's files searching each term. */
  async function listPlans(ownerId: string, terms: string[], sort: 'date_desc' | 'date_asc' = 'date_desc'): Promise<Map<string, string>> {
    const db = t.config.db;
    if (db.driver !== 'sqlite') throw new Error('SQLite only');
    const sqlite = new SQLite(db.path);
    const issued: CompiledQuery[] = [];
    const logged = new Kysely<Database>({
      dialect: new SqliteDialect({ database: sqlite }),
      plugins: [new CamelCasePlugin()],
      log: (event) => void issued.push(event.query),
    });
    const plans = new Map<string, string>();
    try {
      for (const search of terms) {
        issued.length = 0;
        const page = await new FileRepository(logged, 'sqlite').list({
          ownerId,
          folderId: null,
          trashMode: false,
          search,
          sort,
          limit: 50,
        });
        expect(page.length, search).toBeGreaterThan(0);
        const listed = issued.at(-1)!;
        const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${listed.sql}`).all(...(listed.parameters as unknown[])) as { detail: string }[];
        plans.set(search, plan.map((p) => p.detail).join('\n'));
      }
    } finally {
      await logged.destroy();
    }
    return plans;
  }

  it.skipIf(testDialect() !== 'sqlite')('walks an index in list order for a common term across the drive, sorting nothing', async () => {
    for (const sort of ['date_desc', 'date_asc'] as const) {
      const plans = await listPlans(rows[0]!.ownerId, ['invoice'], sort);
      expect(plans.get('invoice'), sort).not.toMatch(/TEMP B-TREE/);
    }
  });
});
