import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOCAL_MODEL_ID } from '../../src/search/embed/provider.js';
import { ANALYSIS_VERSION } from '../../src/search/indexer.js';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createSearchApp, semanticSearch, type SearchHarness } from './support.js';

let h: SearchHarness;
let alice: TestBrowser;

beforeAll(async () => {
  h = await createSearchApp();
  alice = new TestBrowser(h.app);
  await alice.signUp();
}, 60_000);

afterAll(() => h.close());

const entries = () => h.app.database.db.selectFrom('searchEntry').select(['itemId', 'analysisVersion', 'modelId', 'indexedAt']).execute();

it('re-indexes entries of an older pipeline or another model, and files that were never indexed', async () => {
  const file = await upload(alice, 'poem.txt', 'The sea at night, waves under a silver moon.');
  await h.index();
  const db = h.app.database.db;
  await db
    .updateTable('searchEntry')
    .set({ analysisVersion: ANALYSIS_VERSION - 1, modelId: 'remote:old-model', body: 'stale' })
    .execute();
  // A file the event-driven jobs never saw (as after a crash between commit and enqueue).
  await db.deleteFrom('job').execute();
  const lost = await upload(alice, 'lost.txt', 'A recipe for lemon cake with poppy seeds.');
  // Lets the upload's enqueue finish (its job is not due yet, so nothing runs), then loses it.
  await h.app.background.drainJobs();
  await db.deleteFrom('job').execute();

  await h.app.background.schedule();
  await h.index();

  const after = await entries();
  expect(after.map((e) => e.itemId).sort()).toEqual([file._id, lost._id].sort());
  for (const entry of after) expect(entry).toMatchObject({ analysisVersion: ANALYSIS_VERSION, modelId: LOCAL_MODEL_ID });
  expect((await semanticSearch(alice, 'lemon cake')).body.files[0]?._id).toBe(lost._id);
}, 60_000);

it('forgets entries of deleted files', async () => {
  const file = await upload(alice, 'temp.txt', 'Temporary notes about nothing in particular.');
  await h.index();
  await alice.patch('/file-service/trash', { id: file._id });
  await alice.delete('/file-service/remove', { id: file._id });
  await h.app.background.schedule();
  await h.index();
  expect((await entries()).map((e) => e.itemId)).not.toContain(file._id);
}, 60_000);
