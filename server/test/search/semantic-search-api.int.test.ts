import { SEMANTIC_QUERY_MAX } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createSearchApp, semanticSearch, type SearchHarness } from './support.js';

const names = (r: { body: { files: { filename: string }[] } }) => r.body.files.map((f) => f.filename);

describe('POST /file-service/semantic-search', () => {
  let h: SearchHarness;
  let alice: TestBrowser;

  beforeAll(async () => {
    h = await createSearchApp();
    alice = new TestBrowser(h.app);
    await alice.signUp();
  }, 60_000);

  afterAll(() => h.close());

  it('answers 401 when signed out', async () => {
    const anonymous = new TestBrowser(h.app);
    const response = await anonymous.post('/file-service/semantic-search', { query: 'contract' });
    expect(response.statusCode).toBe(401);
  });

  it.each([
    ['an empty query', { query: '   ' }],
    ['a missing query', {}],
    ['a huge query', { query: 'x'.repeat(SEMANTIC_QUERY_MAX + 1) }],
    ['a query of the wrong type', { query: 42 }],
    ['a userId of the wrong type', { query: 'contract', userId: { $ne: null } }],
  ])('answers 400 for %s', async (_name, body) => {
    const response = await alice.post('/file-service/semantic-search', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: expect.any(String) });
  });

  it('follows renames and moves, and never shows trashed files', async () => {
    const file = await upload(alice, 'draft.txt', 'Quarterly budget forecast for the marketing department with spending by channel.');
    const archive = await createFolder(alice, 'Old stuff');
    await h.index();
    expect(names(await semanticSearch(alice, 'budget forecast'))).toEqual(['draft.txt']);

    await alice.patch('/file-service/rename', { id: file._id, title: 'marketing-plan.txt' });
    await alice.patch('/file-service/move', { id: file._id, parentID: archive._id });
    await h.index();
    expect(names(await semanticSearch(alice, 'marketing plan'))).toEqual(['marketing-plan.txt']);
    const byFolder = await semanticSearch(alice, 'old stuff');
    expect(byFolder.body.folders.map((f) => f.name)).toEqual(['Old stuff']);
    expect(names(byFolder)).toContain('marketing-plan.txt');

    await alice.patch('/file-service/trash', { id: file._id });
    expect(names(await semanticSearch(alice, 'budget forecast'))).toEqual([]);
    await alice.patch('/file-service/restore', { id: file._id });
    expect(names(await semanticSearch(alice, 'budget forecast'))).toEqual(['marketing-plan.txt']);
  }, 60_000);

  it('applies kind filters and answers at most 5 of each', async () => {
    for (let i = 0; i < 7; i++) await upload(alice, `recipe-${i}.txt`, `Recipe number ${i}: tomato soup with basil and garlic.`);
    await h.index();
    const soups = await semanticSearch(alice, 'tomato soup recipe');
    expect(soups.body.files).toHaveLength(5);
    expect(names(soups).every((n) => n.startsWith('recipe-'))).toBe(true);
    expect(names(await semanticSearch(alice, 'tomato soup videos'))).toEqual([]);
  }, 60_000);

  it('finds folders by what they contain', async () => {
    const folder = await createFolder(alice, 'Misc 2');
    await upload(alice, 'a.txt', 'Mortgage statement from the bank: principal, interest and escrow for the house.', folder._id);
    await h.index();
    const found = await semanticSearch(alice, 'mortgage');
    expect(found.body.folders.map((f) => f.name)).toContain('Misc 2');
  }, 60_000);
});

describe('SEMANTIC_SEARCH=off', () => {
  it('answers an empty result and indexes nothing', async () => {
    const h = await createSearchApp({ search: { enabled: false, embeddings: null } });
    try {
      const bob = new TestBrowser(h.app);
      await bob.signUp();
      await upload(bob, 'contract.txt', 'Employment contract with salary and notice period.');
      await h.index();
      const result = await semanticSearch(bob, 'contract');
      expect(result).toEqual({ status: 200, body: { files: [], folders: [] } });
      const entries = await h.app.database.db.selectFrom('searchEntry').select('itemId').execute();
      expect(entries).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
