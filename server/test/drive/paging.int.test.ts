import type { FileDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRepository, type FileRow } from '../../src/db/repositories/file.repository.js';
import { fileRow } from '../helpers/rows.js';
import { listFiles } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const SORTS = ['date_asc', 'date_desc', 'alp_asc', 'alp_desc'] as const;
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function row(ownerId: string, filename: string, uploadedAt: number): FileRow {
  return fileRow(ownerId, filename, { uploadedAt });
}

async function pageThrough(
  browser: TestBrowser,
  sortBy: string,
  extra: Record<string, string> = {},
): Promise<{ ids: string[]; requests: number }> {
  const ids: string[] = [];
  let last: FileDto | undefined;
  let requests = 0;
  for (;;) {
    const query: Record<string, string> = { sortBy, limit: '50', ...extra };
    if (last) Object.assign(query, { startAt: 'true', startAtDate: last.uploadDate, startAtName: last.filename, startAtId: last._id });
    const page = await listFiles(browser, query);
    requests++;
    ids.push(...page.map((f) => f._id));
    if (page.length < 50) return { ids, requests };
    last = page.at(-1);
  }
}

describe('keyset paging', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let expected: Record<(typeof SORTS)[number], string[]>;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    const { id: ownerId } = await alice.signUp();
    const files = new FileRepository(t.app.database.db, t.app.database.dialect);
    const rows: FileRow[] = [];
    // 1,000 files: 600 share one date and one name, the rest share dates and names in groups.
    for (let i = 0; i < 1000; i++) {
      const tied = i < 600;
      rows.push(row(ownerId, tied ? 'Same.txt' : `name-${i % 7}.txt`, tied ? 1_700_000_000_000 : 1_700_000_000_000 + (i % 5) * 1000));
    }
    for (const r of rows) await files.insert(r);
    const byDate = [...rows].sort((a, b) => a.uploadedAt - b.uploadedAt || compare(a.nameKey, b.nameKey) || compare(a.id, b.id));
    const byName = [...rows].sort((a, b) => compare(a.nameKey, b.nameKey) || a.uploadedAt - b.uploadedAt || compare(a.id, b.id));
    expected = {
      date_asc: byDate.map((r) => r.id),
      date_desc: byDate.map((r) => r.id).reverse(),
      alp_asc: byName.map((r) => r.id),
      alp_desc: byName.map((r) => r.id).reverse(),
    };
  });
  afterAll(() => t.close());

  it.each(SORTS)('returns every file exactly once, in order, for %s', async (sort) => {
    const { ids, requests } = await pageThrough(alice, sort);
    expect(new Set(ids).size).toBe(1000);
    expect(ids).toEqual(expected[sort]);
    expect(requests).toBe(21);
  });

  it('uses page size 50 by default and 100 in media mode', async () => {
    expect((await listFiles(alice)).length).toBe(50);
    expect((await listFiles(alice, { mediaMode: 'true' })).length).toBe(0);
  });

  it('rejects malformed paging parameters', async () => {
    for (const query of ['sortBy=nope', 'limit=0', 'limit=abc', 'startAt=true&startAtDate=yesterday', 'trashMode=maybe']) {
      expect((await alice.get(`/file-service/list?${query}`)).statusCode, query).toBe(400);
    }
  });
});
