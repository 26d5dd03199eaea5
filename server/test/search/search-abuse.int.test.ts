import type { FileDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERIES_IN_FLIGHT } from '../../src/search/search.service.js';
import { listFiles, upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const HOSTILE = [
  '"',
  '""',
  '*',
  'NEAR(',
  'NEAR(a b)',
  'OR',
  ')',
  '(',
  'AND',
  'NOT',
  '^',
  ':',
  'name_key:x',
  "'; DROP TABLE file;--",
  '%',
  '_',
  '\\',
  '😀',
  'a'.repeat(256),
];

describe('search under abuse', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let bob: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    bob = new TestBrowser(t.app);
    await alice.signUp();
    await bob.signUp();
    await upload(alice, 'plain report.txt', 'x');
    await upload(alice, 'odd "quoted" 100% _name_ (draft) NEAR: *^.txt', 'x');
  });
  afterAll(() => t.close());

  it('reads query syntax characters as plain text in every name search', async () => {
    for (const term of HOSTILE) {
      const q = encodeURIComponent(term);
      for (const url of [
        `/file-service/list?search=${q}`,
        `/file-service/suggested-list?search=${q}`,
        `/folder-service/list?search=${q}`,
        `/folder-service/move-folder-list?search=${q}`,
      ]) {
        const response = await alice.get(url);
        expect(response.statusCode, `${url}: ${response.body.slice(0, 120)}`).toBe(200);
      }
    }
    const names = async (term: string) => (await listFiles(alice, { search: term })).map((f: FileDto) => f.filename);
    expect(await names('"quoted"')).toHaveLength(1);
    expect(await names('100%')).toHaveLength(1);
    expect(await names('_name_')).toHaveLength(1);
    expect(await names('(draft) NEAR:')).toHaveLength(1);
    expect(await names('*^')).toHaveLength(1);
    expect(await names('%')).toHaveLength(1);
    expect(await names('report')).toEqual(['plain report.txt']);
  });

  it(`answers at most ${MAX_QUERIES_IN_FLIGHT} AI searches of one account at once; others' go on`, async () => {
    const flood = Array.from({ length: 10 }, (_, i) =>
      alice.post('/file-service/semantic-search', { query: `report number ${i} ${'word '.repeat(80)}` }),
    );
    const other = bob.post('/file-service/semantic-search', { query: 'report' });
    const statuses = (await Promise.all(flood)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(MAX_QUERIES_IN_FLIGHT);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10 - MAX_QUERIES_IN_FLIGHT);
    expect((await other).statusCode).toBe(200);
    expect((await alice.post('/file-service/semantic-search', { query: 'report' })).statusCode).toBe(200);
  });
});
