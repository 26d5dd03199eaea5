import type { FaceDto, FileDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { changedCopies, facePhotos } from './face-photos.js';

const photos = await facePhotos();

/** AI search through the whole server: the names the account gave its people narrow a question. */
describe.skipIf(!photos)('searching for people by name', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let bob: TestBrowser;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
    bob = new TestBrowser(t.app);
    await bob.signUp();
    ids.astronaut = (await upload(alice, 'IMG_7101.jpg', photos!.astronaut))._id;
    ids.cropped = (await upload(alice, 'IMG_7201.jpg', (await changedCopies(photos!.astronaut)).cropped))._id;
    ids.cameraman = (await upload(alice, 'IMG_7102.jpg', photos!.cameraman))._id;
    ids.coffee = (await upload(alice, 'IMG_7104.jpg', photos!.coffee))._id;
    ids.bobs = (await upload(bob, 'IMG_0001.jpg', photos!.astronaut))._id;
    await t.app.background.drainJobs();
    const [face] = (await alice.get(`/people-service/files/${ids.astronaut}/faces`)).json<{ faces: FaceDto[] }>().faces;
    ids.anna = face!.personId!;
    expect((await alice.patch(`/people-service/people/${ids.anna}`, { name: 'Anna Smith' })).statusCode).toBe(200);
  }, 300_000);
  afterAll(async () => {
    await t.close();
  });

  const search = async (browser: TestBrowser, query: string) => {
    const answer = await browser.post('/file-service/semantic-search', { query });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ files: FileDto[] }>().files.map((f) => f._id);
  };

  it('finds her photos by her name, whole or first', async () => {
    expect(new Set(await search(alice, 'Anna Smith'))).toEqual(new Set([ids.astronaut, ids.cropped]));
    expect((await alice.patch(`/people-service/people/${ids.anna}`, { name: 'Anna' })).statusCode).toBe(200);
    expect(new Set(await search(alice, 'anna'))).toEqual(new Set([ids.astronaut, ids.cropped]));
  });

  it('finds nothing of hers for another account, nor once she is hidden', async () => {
    expect(await search(bob, 'anna')).not.toContain(ids.bobs);
    await alice.patch(`/people-service/people/${ids.anna}`, { hidden: true });
    expect(await search(alice, 'anna')).toEqual([]);
    await alice.patch(`/people-service/people/${ids.anna}`, { hidden: false });
  });
});
