import type { FileDto } from '@nimbus/common';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.js';
import { FileRepository, type FileRow } from '../../src/db/repositories/file.repository.js';
import { newId } from '../../src/security/ids.js';
import { listFiles } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, testDialect, type TestApp } from '../helpers/test-app.js';

const DAY = 86_400_000;

function row(ownerId: string, filename: string, uploadedAt: number, trashed = false): FileRow {
  return {
    id: newId(),
    ownerId,
    folderId: null,
    filename,
    nameKey: filename.toLowerCase(),
    size: 1,
    contentType: 'application/pdf',
    mediaKind: null,
    sha256: 'x',
    storageKey: newId(),
    wrappedKey: 'x',
    uploadedAt,
    updatedAt: uploadedAt,
    trashedAt: trashed ? uploadedAt : null,
    trashedVia: null,
    linkType: null,
    linkToken: null,
    thumbnailId: null,
  };
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
    for (let i = 0; i < 2300; i++) {
      const name = i % 10 === 9 ? `Receipt ${i}.pdf` : `Invoice-${i}.pdf`;
      rows.push(row(ownerId, name, 1_700_000_000_000 + (i % 97) * DAY + i, i % 50 === 7));
    }
    for (const r of rows) await files.insert(r);
    // Another account's invoices count towards how common the term is, never towards the answer.
    for (let i = 0; i < 30; i++) await files.insert(row(otherId, `Invoice-bob-${i}.pdf`, 1_700_000_000_000 + i));
  }, 120_000);
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

  // Files of one folder upload share their millisecond: an index without the name key made SQLite
  // sort each such run aside before it could stop at a page (27-32 ms at 10^6 files, not 0.6).
  it.skipIf(testDialect() !== 'sqlite')('walks an index in list order for a common term across the drive, sorting nothing', async () => {
    const db = t.config.db;
    if (db.driver !== 'sqlite') return;
    const sqlite = new SQLite(db.path);
    const issued: CompiledQuery[] = [];
    const logged = new Kysely<Database>({
      dialect: new SqliteDialect({ database: sqlite }),
      plugins: [new CamelCasePlugin()],
      log: (event) => void issued.push(event.query),
    });
    try {
      const ownerId = rows[0]!.ownerId;
      for (const sort of ['date_desc', 'date_asc'] as const) {
        issued.length = 0;
        const page = await new FileRepository(logged, 'sqlite').list({
          ownerId,
          folderId: null,
          trashMode: false,
          search: 'invoice',
          sort,
          limit: 50,
        });
        expect(page).toHaveLength(50);
        const listed = issued.at(-1)!;
        const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${listed.sql}`).all(...(listed.parameters as unknown[])) as { detail: string }[];
        expect(plan.map((p) => p.detail).join('\n'), sort).not.toMatch(/TEMP B-TREE/);
      }
    } finally {
      await logged.destroy();
    }
  });
});
