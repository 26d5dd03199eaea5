import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { share } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ search: { enabled: false, embeddings: null } });
});
afterAll(() => t.close());

it('housekeeping removes the shares of items deleted for good with the folder around them, and keeps the rest', async () => {
  const owner = new TestBrowser(t.app);
  await owner.signUp();
  const recipient = new TestBrowser(t.app);
  const { email } = await recipient.signUp();
  const outer = await createFolder(owner, 'Outer');
  const inner = await upload(owner, 'inside.txt', 'data', outer._id);
  const kept = await upload(owner, 'kept.txt', 'data');
  const innerShare = await share(owner, 'file', inner._id, email, 'viewer');
  const keptShare = await share(owner, 'file', kept._id, email, 'viewer');

  expect((await owner.patch('/folder-service/trash', { id: outer._id })).statusCode).toBe(200);
  expect((await owner.delete('/folder-service/remove', { id: outer._id })).statusCode).toBe(200);
  await t.app.background.drainJobs();
  const rows = () => t.app.database.db.selectFrom('itemShare').select('id').orderBy('id').execute();
  // Deleting the folder forgot its own shares only: the file's share inside it is left pointing at nothing.
  expect((await rows()).map((r) => r.id)).toContain(innerShare.id);

  await t.app.background.schedule();
  await t.app.background.drainJobs();
  expect((await rows()).map((r) => r.id)).toEqual([keptShare.id]);
  expect((await recipient.get('/item-share-service/shared-with-me')).json<{ shareId: string }[]>().map((s) => s.shareId)).toEqual([
    keptShare.id,
  ]);
});
