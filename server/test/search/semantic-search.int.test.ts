import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createSearchApp, semanticSearch, type SearchHarness } from './support.js';

describe('AI search through the API', () => {
  let h: SearchHarness;
  let alice: TestBrowser;
  let bob: TestBrowser;
  let aliceUserId: string;

  beforeAll(async () => {
    h = await createSearchApp();
    alice = new TestBrowser(h.app);
    bob = new TestBrowser(h.app);
    aliceUserId = (await alice.signUp()).id;
    await bob.signUp();
    const pets = await createFolder(alice, 'Pets');
    await upload(alice, 'notes.txt', 'Our golden retriever Max loves chasing the ball in the park every morning.', pets._id);
    await upload(
      alice,
      'contract.txt',
      'EMPLOYMENT AGREEMENT between Acme Corporation and Alice. Salary, duties, termination and notice period.',
    );
    await upload(alice, 'shopping.txt', 'Milk, eggs, bread, tomatoes, olive oil.');
    await upload(bob, 'bob-secret.txt', 'Bob employment agreement with salary and notice period details.');
    await h.index();
  }, 120_000);

  afterAll(() => h.close());

  it('finds a file by what it contains, not its name', async () => {
    const { status, body } = await semanticSearch(alice, 'job contract', aliceUserId);
    expect(status).toBe(200);
    expect(body.files[0]?.filename).toBe('contract.txt');
  });

  it('finds the folder by its name and files by meaning', async () => {
    const { body } = await semanticSearch(alice, 'dog');
    expect(body.files.map((f) => f.filename)).toContain('notes.txt');
    const pets = await semanticSearch(alice, 'pets');
    expect(pets.body.folders.map((f) => f.name)).toContain('Pets');
  });

  it('never shows another user’s files, whatever userId says', async () => {
    const { body } = await semanticSearch(bob, 'job contract', aliceUserId);
    expect(body.files.map((f) => f.filename)).toEqual(['bob-secret.txt']);
  });
});
