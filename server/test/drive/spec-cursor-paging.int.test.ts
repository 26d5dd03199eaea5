import type { FileDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRepository, type FileRow } from '../../src/db/repositories/file.repository.js';
import type { MediaKind } from '../../src/db/schema.js';
import { fileRow } from '../helpers/rows.js';
import { listFiles } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const SORTS = ['date_asc', 'date_desc', 'alp_asc', 'alp_desc'] as const;
const NAMES = 10;
const PER_NAME = 12;
const BASE = Date.UTC(2026, 0, 1);

function row(ownerId: string, i: number, mediaKind: MediaKind | null): FileRow {
  // Ten names, twelve files each; every date is shared by ten files, every (name, date) pair is unique.
  const filename = `Report ${i % NAMES}.${mediaKind ? 'jpg' : 'txt'}`;
  const uploadedAt = BASE + Math.floor(i / NAMES) * 60_000;
  return fileRow(ownerId, filename, { contentType: mediaKind ? 'image/jpeg' : 'text/plain', mediaKind, uploadedAt });
}

/** Pages the way the myDrive client does: the cursor is the last file's date and name, never its id. */
async function pageLikeSpecClient(browser: TestBrowser, query: Record<string, string>, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let last: FileDto | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const cursor: Record<string, string> = last ? { startAt: 'true', startAtDate: last.uploadDate, startAtName: last.filename } : {};
    const page = await listFiles(browser, { ...query, limit: String(limit), ...cursor });
    ids.push(...page.map((f) => f._id));
    if (page.length < limit) return ids;
    last = page.at(-1);
  }
  throw new Error('paging never ended');
}

describe.each<{ mode: string; mediaKind: MediaKind | null; extra: Record<string, string> }>([
  { mode: 'folder list', mediaKind: null, extra: {} },
  { mode: 'media mode', mediaKind: 'photo', extra: { mediaMode: 'true' } },
])('paging with the date-and-name cursor alone ($mode)', ({ mediaKind, extra }) => {
  let t: TestApp;
  let alice: TestBrowser;
  let all: Set<string>;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    const { id: ownerId } = await alice.signUp();
    const files = new FileRepository(t.app.database.db, t.app.database.dialect);
    // Inserted in shuffled order, so the storage order cannot stand in for the sort order.
    const rows = Array.from({ length: NAMES * PER_NAME }, (_, i) => row(ownerId, (i * 37) % (NAMES * PER_NAME), mediaKind));
    for (const r of rows) await files.insert(r);
    all = new Set(rows.map((r) => r.id));
  });
  afterAll(() => t.close());

  for (const sortBy of SORTS) {
    for (const limit of [25, 50]) {
      it(`walks all 120 files exactly once under ${sortBy} with limit ${limit}`, async () => {
        const ids = await pageLikeSpecClient(alice, { sortBy, ...extra }, limit);
        expect(ids.length).toBe(120);
        expect(new Set(ids)).toEqual(all);
        const whole = (await listFiles(alice, { sortBy, ...extra, limit: '100' })).map((f) => f._id);
        expect(ids.slice(0, 100)).toEqual(whole);
      });
    }
  }
});
