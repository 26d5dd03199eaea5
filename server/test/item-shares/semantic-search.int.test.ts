import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createSearchApp, semanticSearch, type SearchHarness } from '../search/support.js';
import { share } from './helpers.js';

/** AI search of a recipient finds what is inside a share, marked shared, and nothing else of the owner's. */
describe('semantic search over shared items', () => {
  let h: SearchHarness;
  let owner: TestBrowser;
  let friend: TestBrowser;
  let stranger: TestBrowser;

  beforeAll(async () => {
    h = await createSearchApp();
    owner = new TestBrowser(h.app);
    friend = new TestBrowser(h.app);
    stranger = new TestBrowser(h.app);
    await owner.signUp();
    const friendEmail = (await friend.signUp()).email;
    await stranger.signUp();
    const shared = await createFolder(owner, 'Team');
    await upload(owner, 'forecast.txt', 'Quarterly budget forecast for the marketing department with spending by channel.', shared._id);
    await upload(owner, 'private-budget.txt', 'Private household budget forecast, never shared.');
    await share(owner, 'folder', shared._id, friendEmail, 'viewer');
    await h.index();
  }, 60_000);
  afterAll(() => h.close());

  it('finds the shared file, marked shared, and not the private one', async () => {
    const found = await semanticSearch(friend, 'budget forecast');
    expect(found.body.files.map((f) => f.filename)).toEqual(['forecast.txt']);
    expect(found.body.files[0]).toMatchObject({ shared: { role: 'viewer' } });
    expect((await semanticSearch(stranger, 'budget forecast')).body.files).toEqual([]);
    // The owner's own answer carries no shared marks.
    const mine = await semanticSearch(owner, 'budget forecast');
    expect(mine.body.files.map((f) => f.filename).sort()).toEqual(['forecast.txt', 'private-budget.txt']);
    for (const file of mine.body.files) expect(file).not.toHaveProperty('shared');
  }, 60_000);
});
