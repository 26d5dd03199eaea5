import type { FaceDto, FileDto, PeopleSettingsDto, PersonDto } from '@nimbus/common';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PeopleNameMatcher } from '../../src/people/people-matcher.js';
import { PeopleRepository } from '../../src/people/people.repository.js';
import { upload } from '../helpers/drive.js';
import { makeDng } from '../media/raw-files.js';
import { multipartBody } from '../helpers/multipart.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ASTRONAUT_FACE, changedCopies, facePhotos } from './face-photos.js';

const photos = await facePhotos();
/** A face pass takes about a second of a busy core; a test scans up to ten photos. */
const SLOW = 180_000;

describe.skipIf(!photos)('people in photos', () => {
  const p = photos!;
  let t: TestApp;
  let alice: TestBrowser;
  let bob: TestBrowser;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
    alice = new TestBrowser(t.app);
    await alice.signUp();
    bob = new TestBrowser(t.app);
    await bob.signUp();
  });
  afterAll(async () => {
    await t.close();
  });

  const db = () => t.app.database.db;
  const json = async <T>(browser: TestBrowser, url: string): Promise<T> => {
    const answer = await browser.get(url);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as T;
  };
  const people = async (browser: TestBrowser, hidden = false) =>
    (await json<{ people: PersonDto[] }>(browser, `/people-service/people${hidden ? '?hidden=true' : ''}`)).people;
  const fileFaces = async (browser: TestBrowser, fileId: string) =>
    (await json<{ faces: FaceDto[] }>(browser, `/people-service/files/${fileId}/faces`)).faces;
  const personOf = async (fileId: string) => {
    const faces = await fileFaces(alice, fileId);
    expect(faces).toHaveLength(1);
    return faces[0]!.personId!;
  };
  const scanOf = (fileId: string) => db().selectFrom('faceScan').selectAll().where('fileId', '=', fileId).executeTakeFirst();
  const rowsOf = async (ownerId: string) => ({
    faces: (await db().selectFrom('face').select('id').where('ownerId', '=', ownerId).execute()).length,
    people: (await db().selectFrom('person').select('id').where('ownerId', '=', ownerId).execute()).length,
    scans: (await db().selectFrom('faceScan').select('fileId').where('ownerId', '=', ownerId).execute()).length,
  });
  const aliceId = async () => (await json<{ _id: string }>(alice, '/user-service/user'))._id;

  it(
    "finds the astronaut's face where it is, puts her changed copies with her, another man apart, and nobody in a cup of coffee",
    async () => {
      ids.astronaut = (await upload(alice, 'IMG_7101.jpg', p.astronaut))._id;
      const copies = await changedCopies(p.astronaut);
      for (const [name, data] of Object.entries(copies)) ids[name] = (await upload(alice, `${name}.jpg`, data))._id;
      ids.cameraman = (await upload(alice, 'IMG_7102.jpg', p.cameraman))._id;
      ids.coffee = (await upload(alice, 'IMG_7104.jpg', p.coffee))._id;
      await t.app.background.drainJobs();

      const [face] = await fileFaces(alice, ids.astronaut);
      expect(await fileFaces(alice, ids.astronaut)).toHaveLength(1);
      for (const side of ['x', 'y', 'width', 'height'] as const)
        expect(Math.abs(face!.box[side] - ASTRONAUT_FACE[side])).toBeLessThan(0.05);
      expect(face!.score).toBeGreaterThan(0.8);
      // Upright whatever the EXIF orientation: the sideways-stored copy has its face at the same place.
      const [turned] = await fileFaces(alice, ids.exifRotated!);
      expect(Math.abs(turned!.box.x - face!.box.x)).toBeLessThan(0.03);
      expect(Math.abs(turned!.box.y - face!.box.y)).toBeLessThan(0.03);

      const astronaut = face!.personId!;
      for (const name of Object.keys(copies)) expect(await personOf(ids[name]!), name).toBe(astronaut);
      expect(await personOf(ids.cameraman)).not.toBe(astronaut);
      expect(await fileFaces(alice, ids.coffee)).toEqual([]);
      expect(await scanOf(ids.coffee)).toMatchObject({ status: 'done', faceCount: 0 });

      const listed = await people(alice);
      expect(listed.map((x) => [x.id, x.photoCount, x.faceCount])).toEqual([
        [astronaut, 5, 5],
        [await personOf(ids.cameraman), 1, 1],
      ]);
      expect(listed[0]).toMatchObject({ name: null, hidden: false });
      expect(await json<PeopleSettingsDto>(alice, '/people-service/settings')).toEqual({
        enabled: true,
        scannedPhotos: 7,
        pendingPhotos: 0,
      });

      const page1 = await json<{ files: FileDto[]; nextCursor: string | null }>(alice, `/people-service/people/${astronaut}/files?limit=3`);
      expect(page1.files).toHaveLength(3);
      const page2 = await json<{ files: FileDto[]; nextCursor: string | null }>(
        alice,
        `/people-service/people/${astronaut}/files?limit=3&cursor=${page1.nextCursor}`,
      );
      expect(page2.nextCursor).toBeNull();
      const shown = [...page1.files, ...page2.files];
      expect(new Set(shown.map((f) => f._id))).toEqual(new Set([ids.astronaut, ...Object.keys(copies).map((n) => ids[n])]));
      // As the media gallery shows a file.
      const gallery = (await json<FileDto[]>(alice, '/file-service/list?mediaMode=true&limit=100')).find((f) => f._id === shown[0]!._id);
      expect(shown[0]).toEqual(gallery);
    },
    SLOW,
  );

  it('gives each face a small JPEG crop, private and with an ETag', async () => {
    const [face] = await fileFaces(alice, ids.astronaut!);
    const answer = await alice.get(`/people-service/faces/${face!.id}/crop`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('image/jpeg');
    expect(answer.headers['cache-control']).toMatch(/^private/);
    const meta = await sharp(answer.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 160, height: 160 });
    const again = await alice.request('GET', `/people-service/faces/${face!.id}/crop`, undefined, {
      'if-none-match': answer.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);
    // The crop is sealed in the database, not a JPEG anyone reading the table sees.
    const row = await db().selectFrom('face').select('crop').where('id', '=', face!.id).executeTakeFirstOrThrow();
    expect(row.crop.subarray(0, 2).equals(Buffer.from([0xff, 0xd8]))).toBe(false);
  });

  it('finds the files of named, visible people for search, and no one else’s', async () => {
    const matcher = new PeopleNameMatcher(new PeopleRepository(db()));
    const owner = await aliceId();
    const astronaut = await personOf(ids.astronaut!);
    const cameraman = await personOf(ids.cameraman!);
    expect((await alice.patch(`/people-service/people/${astronaut}`, { name: 'Anna Smith' })).statusCode).toBe(200);
    expect((await alice.patch(`/people-service/people/${cameraman}`, { name: 'Anna' })).statusCode).toBe(200);
    const photosOf = async (personId: string) =>
      new Set((await json<{ files: FileDto[] }>(alice, `/people-service/people/${personId}/files`)).files.map((f) => f._id));

    const anna = await matcher.match(owner, ['anna', 'at', 'the', 'beach']);
    expect(anna?.terms).toEqual(['anna']);
    expect(new Set(anna?.fileIds)).toEqual(await photosOf(cameraman));
    // The longer name is read first: "anna smith" is Anna Smith, not Anna.
    const full = await matcher.match(owner, ['photos', 'of', 'Anna', 'SMITH']);
    expect(full?.terms).toEqual(['Anna', 'SMITH']);
    expect(new Set(full?.fileIds)).toEqual(await photosOf(astronaut));
    // Both named: only photos showing both (there are none).
    expect(await matcher.match(owner, ['anna', 'smith', 'and', 'anna'])).toEqual({ terms: ['anna', 'smith', 'anna'], fileIds: [] });
    // A name's words out of order or run together name nobody.
    expect(await matcher.match(owner, ['smith'])).toBeNull();
    expect(await matcher.match(owner, ['annas'])).toBeNull();
    expect(await matcher.match(owner, ['beach'])).toBeNull();

    // Another account never finds them by name.
    const bobId = (await json<{ _id: string }>(bob, '/user-service/user'))._id;
    expect(await matcher.match(bobId, ['anna'])).toBeNull();

    // Hidden, a person is not found; a trashed photo is not among the files.
    await alice.patch(`/people-service/people/${cameraman}`, { hidden: true });
    expect(await matcher.match(owner, ['anna'])).toBeNull();
    await alice.patch(`/people-service/people/${cameraman}`, { hidden: false });
    expect((await alice.patch('/file-service/trash', { id: ids.resized })).statusCode).toBe(200);
    const untrashed = await matcher.match(owner, ['anna', 'smith']);
    expect(untrashed?.fileIds).toHaveLength(4);
    expect(untrashed?.fileIds).not.toContain(ids.resized);
    expect(await json<PersonDto>(alice, `/people-service/people/${astronaut}`)).toMatchObject({ photoCount: 4 });
    expect((await alice.patch('/file-service/restore', { id: ids.resized })).statusCode).toBe(200);
    expect(await json<PersonDto>(alice, `/people-service/people/${astronaut}`)).toMatchObject({ photoCount: 5 });
  });

  it('renames, hides, merges and removes a face, and each change stays', async () => {
    const astronaut = await personOf(ids.astronaut!);
    const cameraman = await personOf(ids.cameraman!);
    const named = await alice.patch(`/people-service/people/${astronaut}`, { name: '  Eileen   Collins ' });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json()).toMatchObject({ id: astronaut, name: 'Eileen   Collins' });
    expect(await json<PersonDto>(alice, `/people-service/people/${astronaut}`)).toMatchObject({ name: 'Eileen   Collins', photoCount: 5 });
    expect((await fileFaces(alice, ids.cropped!))[0]!.personName).toBe('Eileen   Collins');

    expect((await alice.patch(`/people-service/people/${cameraman}`, { hidden: true })).statusCode).toBe(200);
    expect((await people(alice)).map((x) => x.id)).toEqual([astronaut]);
    expect((await people(alice, true)).map((x) => x.id)).toEqual([cameraman]);
    expect((await alice.patch(`/people-service/people/${cameraman}`, { hidden: false, name: null })).json()).toMatchObject({
      hidden: false,
      name: null,
    });

    // A wrong face leaves its person, who keeps the others; it never goes back to them.
    const tilted = (await fileFaces(alice, ids.tilted!))[0]!;
    const removed = await alice.delete(`/people-service/people/${astronaut}/faces/${tilted.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: 'Face removed' });
    expect((await fileFaces(alice, ids.tilted!))[0]).toMatchObject({ id: tilted.id, personId: null });
    expect(await json<PersonDto>(alice, `/people-service/people/${astronaut}`)).toMatchObject({ photoCount: 4, faceCount: 4 });
    const faceIds = (await json<{ faces: FaceDto[] }>(alice, `/people-service/people/${astronaut}/faces`)).faces.map((f) => f.id);
    expect(faceIds).toHaveLength(4);
    expect(faceIds).not.toContain(tilted.id);
    expect((await alice.delete(`/people-service/people/${astronaut}/faces/${tilted.id}`)).json()).toMatchObject({ code: 'FACE_NOT_FOUND' });

    // Merging moves the other's faces in; the merged person keeps its name, the other is gone.
    const merged = await alice.post(`/people-service/people/${astronaut}/merge`, { personId: cameraman });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json()).toMatchObject({ id: astronaut, name: 'Eileen   Collins', photoCount: 5, faceCount: 5 });
    expect((await alice.get(`/people-service/people/${cameraman}`)).json()).toMatchObject({ code: 'PERSON_NOT_FOUND' });
    expect(await personOf(ids.cameraman!)).toBe(astronaut);
    expect((await people(alice)).map((x) => x.id)).toEqual([astronaut]);
    expect((await alice.patch(`/people-service/people/${astronaut}`, { name: 'Eileen Collins' })).statusCode).toBe(200);
  });

  it('answers 400 to bad bodies, queries and ids', async () => {
    const astronaut = await personOf(ids.astronaut!);
    const url = `/people-service/people/${astronaut}`;
    const bad = [
      alice.patch(url, { name: '' }),
      alice.patch(url, { name: '   ' }),
      alice.patch(url, { name: 'x'.repeat(101) }),
      alice.patch(url, { name: 'x'.repeat(100_000) }),
      alice.patch(url, { name: 'An\u0000na' }),
      alice.patch(url, { name: 'An\nna' }),
      alice.patch(url, { name: 12 }),
      alice.patch(url, { hidden: 'yes' }),
      alice.patch(url, {}),
      alice.patch(url, []),
      alice.request('PATCH', url, '{"name":', { 'content-type': 'application/json' }),
      alice.post(`${url}/merge`, { personId: astronaut }),
      alice.post(`${url}/merge`, { personId: 12 }),
      alice.post(`${url}/merge`, { personId: '' }),
      alice.post(`${url}/merge`, {}),
      alice.request('PUT', '/people-service/settings', { enabled: 'false' }),
      alice.request('PUT', '/people-service/settings', {}),
      alice.get(`${url}/files?limit=0`),
      alice.get(`${url}/files?limit=101`),
      alice.get(`${url}/files?limit=ten`),
      alice.get(`${url}/files?cursor=${'A'.repeat(300)}`),
      alice.get(`${url}/files?cursor=not-a-cursor`),
      alice.get('/people-service/people?hidden=maybe'),
      alice.get(`/people-service/people/${'x'.repeat(65)}`),
    ];
    for (const answer of await Promise.all(bad)) {
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    // 100 characters (not bytes) is within bounds.
    const long = await alice.patch(url, { name: 'é'.repeat(100) });
    expect(long.statusCode, long.body).toBe(200);
    expect((await alice.patch(url, { name: null })).json()).toMatchObject({ name: null });
    expect((await alice.patch(url, { name: 'Eileen Collins' })).json()).toMatchObject({ name: 'Eileen Collins' });
    expect((await alice.get('/people-service/settings')).statusCode).toBe(200);
    expect((await new TestBrowser(t.app).get('/people-service/people')).statusCode).toBe(401);
  });

  it(
    "answers 404 to another account for every person, face and file id, and shows it nobody's people",
    async () => {
      const astronaut = await personOf(ids.astronaut!);
      const [face] = await fileFaces(alice, ids.astronaut!);
      const answers = {
        PERSON_NOT_FOUND: [
          bob.get(`/people-service/people/${astronaut}`),
          bob.patch(`/people-service/people/${astronaut}`, { name: 'Mine' }),
          bob.post(`/people-service/people/${astronaut}/merge`, { personId: astronaut + 'x' }),
          bob.get(`/people-service/people/${astronaut}/files`),
          bob.get(`/people-service/people/${astronaut}/faces`),
          bob.delete(`/people-service/people/${astronaut}/faces/${face!.id}`),
          alice.post(`/people-service/people/${astronaut}/merge`, { personId: 'someone-else' }),
        ],
        FACE_NOT_FOUND: [bob.get(`/people-service/faces/${face!.id}/crop`), alice.get('/people-service/faces/nobody/crop')],
        FILE_NOT_FOUND: [bob.get(`/people-service/files/${ids.astronaut}/faces`)],
      };
      for (const [code, pending] of Object.entries(answers)) {
        for (const answer of await Promise.all(pending)) {
          expect(answer.statusCode, answer.body).toBe(404);
          expect(answer.json()).toMatchObject({ code });
        }
      }
      // Bob's own person cannot take in Alice's either.
      const bobs = (await upload(bob, 'me.jpg', p.cameraman))._id;
      await t.app.background.drainJobs();
      const bobPerson = (await fileFaces(bob, bobs))[0]!.personId!;
      const stolen = await bob.post(`/people-service/people/${bobPerson}/merge`, { personId: astronaut });
      expect(stolen.statusCode).toBe(404);
      expect((await people(bob)).map((x) => x.id)).toEqual([bobPerson]);
      expect((await json<PersonDto>(alice, `/people-service/people/${astronaut}`)).name).toBe('Eileen Collins');
      // With every photo in the trash, a person is out of the list yet still there to open and name.
      expect((await bob.patch('/file-service/trash', { id: bobs })).statusCode).toBe(200);
      expect(await people(bob)).toEqual([]);
      const renamed = await bob.patch(`/people-service/people/${bobPerson}`, { name: 'Me' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json()).toMatchObject({ name: 'Me', photoCount: 0, faceCount: 0, coverFaceId: null });
      expect((await bob.patch('/file-service/restore', { id: bobs })).statusCode).toBe(200);
      expect((await people(bob)).map((x) => [x.name, x.photoCount])).toEqual([['Me', 1]]);
      // A person whose last face is removed disappears.
      const [bobsFace] = await fileFaces(bob, bobs);
      expect((await bob.delete(`/people-service/people/${bobPerson}/faces/${bobsFace!.id}`)).statusCode).toBe(200);
      expect((await bob.get(`/people-service/people/${bobPerson}`)).statusCode).toBe(404);
      expect(await people(bob)).toEqual([]);
      expect(await db().selectFrom('person').select('id').where('id', '=', bobPerson).executeTakeFirst()).toBeUndefined();
    },
    SLOW,
  );

  it(
    'scans new content again, drops the old faces, and fails a corrupt photo once without retrying it',
    async () => {
      const { body, contentType } = await multipartBody([{ name: 'file', filename: 'IMG_7101.jpg', data: p.coffee }]);
      const replaced = await alice.request('POST', `/file-service/upload-version/${ids.astronaut}`, body, { 'content-type': contentType });
      expect(replaced.statusCode, replaced.body).toBeLessThan(300);
      expect(await fileFaces(alice, ids.astronaut!)).toEqual([]);
      await t.app.background.drainJobs();
      expect(await fileFaces(alice, ids.astronaut!)).toEqual([]);
      expect(await scanOf(ids.astronaut!)).toMatchObject({ status: 'done', faceCount: 0 });
      // Her photo restored from its versions: found again, and back with her copies.
      const { versions } = await json<{ versions: { id: string }[] }>(alice, `/file-service/versions/${ids.astronaut}`);
      const restored = await alice.post(`/file-service/versions/${ids.astronaut}/${versions[0]!.id}/restore`);
      expect(restored.statusCode, restored.body).toBe(200);
      await t.app.background.drainJobs();
      expect(await personOf(ids.astronaut!)).toBe(await personOf(ids.cropped!));

      const corrupt = Buffer.concat([p.cameraman.subarray(0, 2000), Buffer.alloc(4000, 0x41)]);
      const broken = (await upload(alice, 'broken.jpg', corrupt))._id;
      await t.app.background.drainJobs();
      expect(await scanOf(broken)).toMatchObject({ status: 'failed', faceCount: 0 });
      expect((await scanOf(broken))!.error).toMatch(/Cannot read the image/);
      expect(await db().selectFrom('job').select('id').where('dedupeKey', '=', `people.scan:${broken}`).execute()).toEqual([]);
      // A picture the thumbnailer does not read (SVG draws itself with a program) is passed over, once.
      const drawing = (await upload(alice, 'face.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"/>'))._id;
      await t.app.background.drainJobs();
      expect(await scanOf(drawing)).toMatchObject({ status: 'skipped', faceCount: 0 });
      // The backfill does not take them up again either.
      await t.app.background.schedule();
      await t.app.background.drainJobs();
      expect(await db().selectFrom('job').select('id').where('name', '=', 'people.scan').execute()).toEqual([]);
    },
    SLOW,
  );

  it(
    'turned off, deletes every face, person and scan at once and refuses changes; turned on, scans the photos again',
    async () => {
      const owner = await aliceId();
      const astronaut = (await people(alice))[0]!.id;
      const off = await alice.request('PUT', '/people-service/settings', { enabled: false });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json()).toEqual({ enabled: false, scannedPhotos: 0, pendingPhotos: 0 });
      expect(await rowsOf(owner)).toEqual({ faces: 0, people: 0, scans: 0 });
      expect(await people(alice)).toEqual([]);
      expect(await fileFaces(alice, ids.cropped!)).toEqual([]);
      const refused = await alice.patch(`/people-service/people/${astronaut}`, { name: 'Anna' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'PEOPLE_OFF' });
      // Bob's scans are his own business.
      expect((await rowsOf((await json<{ _id: string }>(bob, '/user-service/user'))._id)).scans).toBe(1);

      // Photos stored while off are not scanned.
      const later = (await upload(alice, 'later.jpg', p.astronaut))._id;
      await t.app.background.drainJobs();
      expect(await scanOf(later)).toBeUndefined();

      const on = await alice.request('PUT', '/people-service/settings', { enabled: true });
      expect(on.statusCode, on.body).toBe(200);
      expect(on.json()).toMatchObject({ enabled: true, scannedPhotos: 0 });
      expect((on.json() as PeopleSettingsDto).pendingPhotos).toBeGreaterThan(5);
      await t.app.background.drainJobs();
      const settings = await json<PeopleSettingsDto>(alice, '/people-service/settings');
      expect(settings.pendingPhotos).toBe(0);
      const again = await people(alice);
      expect(again.length).toBeGreaterThanOrEqual(2);
      expect(await personOf(later)).toBe(await personOf(ids.cropped!));
      // Names went with the people: the new ones are unnamed.
      expect(again.every((x) => x.name === null)).toBe(true);
    },
    SLOW,
  );

  it(
    'reads a RAW photo through its upright preview',
    async () => {
      // The camera stored its preview sideways, with the orientation that turns it upright.
      const sideways = await sharp(p.astronaut).rotate(270).jpeg({ quality: 90 }).toBuffer();
      const raw = (await upload(alice, 'IMG_0001.dng', await makeDng(sideways, 6)))._id;
      await t.app.background.drainJobs();
      expect(await scanOf(raw)).toMatchObject({ status: 'done', faceCount: 1 });
      const [face] = await fileFaces(alice, raw);
      for (const side of ['x', 'y', 'width', 'height'] as const)
        expect(Math.abs(face!.box[side] - ASTRONAUT_FACE[side])).toBeLessThan(0.05);
      expect(face!.personId).toBe(await personOf(ids.cropped!));
    },
    SLOW,
  );
});
