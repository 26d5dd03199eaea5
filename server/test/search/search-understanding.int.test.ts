import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createSearchApp, semanticSearch, type SearchHarness } from './support.js';

const fixture = (...parts: string[]) => readFileSync(path.join(import.meta.dirname, '..', ...parts));

/** What a photo shows, misspelt words, landmarks and questions with no answer, through the API. */
describe('AI search understands photos, typos, landmarks and "nothing"', () => {
  let h: SearchHarness;
  let alice: TestBrowser;
  let bob: TestBrowser;

  beforeAll(async () => {
    h = await createSearchApp();
    alice = new TestBrowser(h.app);
    bob = new TestBrowser(h.app);
    await alice.signUp();
    await bob.signUp();
    // Camera names: nothing in them says what the photos show or where they were taken.
    await upload(alice, 'IMG_0001.jpg', fixture('fixtures/vision/espresso.jpg'));
    await upload(alice, 'IMG_0002.jpg', fixture('../eval/fixtures/IMG_6003.jpg'));
    await upload(alice, 'travel.txt', 'Passport renewal form and visa application for the trip.');
    await upload(alice, 'recipes.txt', 'Lasagna with spinach, ricotta and a slow tomato sauce.');
    await upload(alice, 'harbour.txt', 'The ferry and the tugboat were repainted at the yard in March.');
    await upload(alice, 'garage.txt', 'The sedan needs winter tyres and an oil change.');
    await upload(bob, 'bob.txt', 'Squirrel sightings in the park.');
    await h.index();
  }, 180_000);

  afterAll(() => h.close());

  const names = async (who: TestBrowser, query: string) => (await semanticSearch(who, query)).body.files.map((f) => f.filename);

  it('finds a photo by what it shows', async () => {
    expect(await names(alice, 'coffee cup')).toContain('IMG_0001.jpg');
  });

  it('reads a misspelt word as the word in the owner’s files it most likely means', async () => {
    expect(await names(alice, 'pasport')).toEqual(['travel.txt']);
    expect(await names(alice, 'lazagna')).toEqual(['recipes.txt']);
    // Another account's words are never the correction.
    expect(await names(alice, 'squirel')).toEqual([]);
  });

  it('finds a document by a word of the same meaning or a broader one', async () => {
    expect(await names(alice, 'boat')).toContain('harbour.txt');
    expect(await names(alice, 'automobile')).toContain('garage.txt');
  });

  it('finds a photo by the landmark it was taken at', async () => {
    expect(await names(alice, 'Big Ben')).toContain('IMG_0002.jpg');
  });

  it('answers nothing when nothing matches', async () => {
    const { status, body } = await semanticSearch(alice, 'giraffe');
    expect(status).toBe(200);
    expect(body.files).toEqual([]);
    expect(body.folders).toEqual([]);
  });
});
