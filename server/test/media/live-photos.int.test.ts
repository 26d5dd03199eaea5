import type { FileDto } from '@nimbus/common';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup } from '../../src/backup/index.js';
import { createFolder, listFiles, upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { check, flipByte, integrityOf } from '../integrity/support.js';
import { appleMakerNote, clipMp4, directoryXmp, liveMov, liveStill, microVideoXmp, motionPhoto } from './live-photos-files.js';
import { isStored, mediaRow, pattern, skipWithoutFfmpeg } from './support.js';

describe.skipIf(skipWithoutFfmpeg)('Live Photos and motion photos', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let bob: TestBrowser;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
    alice = new TestBrowser(t.app);
    await alice.signUp();
    bob = new TestBrowser(t.app);
    await bob.signUp();
    dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-live-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const db = () => t.app.database.db;
  const gallery = (browser: TestBrowser) => listFiles(browser, { mediaMode: 'true', limit: '100' });
  const motionRow = (fileId: string) => db().selectFrom('fileMotion').selectAll().where('fileId', '=', fileId).executeTakeFirst();
  const pairOf = (photoId: string) => db().selectFrom('livePhoto').selectAll().where('photoFileId', '=', photoId).executeTakeFirst();
  const inGallery = async (browser: TestBrowser, id: string) => (await gallery(browser)).find((f) => f._id === id);

  async function replace(browser: TestBrowser, id: string, filename: string, data: Buffer): Promise<void> {
    const { body, contentType } = await multipartBody([{ name: 'file', filename, data }]);
    const response = await browser.request('POST', `/file-service/upload-version/${id}`, body, { 'content-type': contentType });
    expect(response.statusCode, response.body).toBeLessThan(300);
  }

  describe('Live Photos', () => {
    it('pairs a still with its MOV uploaded afterwards, and the gallery shows the pair once', async () => {
      const id = randomUUID().toUpperCase();
      const still = await upload(alice, 'IMG_0001.JPG', await liveStill(id));
      await t.app.background.drainJobs();
      expect(await motionRow(still._id)).toMatchObject({ status: 'ready', contentId: id, clipId: null });
      expect(await pairOf(still._id)).toBeUndefined();

      const mov = await upload(alice, 'IMG_0001.MOV', await liveMov(dir, id));
      expect(mov.metadata.contentType).toBe('video/quicktime');
      await t.app.background.drainJobs();
      expect(await motionRow(mov._id)).toMatchObject({ status: 'ready', contentId: id });
      expect(await pairOf(still._id)).toMatchObject({ videoFileId: mov._id, contentId: id });

      const shown = await gallery(alice);
      expect(shown.find((f) => f._id === still._id)?.metadata.livePhoto).toEqual({ videoId: mov._id });
      expect(shown.some((f) => f._id === mov._id)).toBe(false);
      // The MOV stays a file of its own: in its folder, playable, downloadable as stored.
      const folder = await listFiles(alice, { parent: '/' });
      expect(folder.map((f) => f._id)).toEqual(expect.arrayContaining([still._id, mov._id]));
      expect(folder.find((f) => f._id === still._id)?.metadata.livePhoto).toBeUndefined();
      const played = await alice.request('GET', `/file-service/stream-video/${mov._id}`, undefined, { range: 'bytes=0-15' });
      expect(played.statusCode).toBe(206);
      const original = await liveStill(id);
      expect((await alice.get(`/file-service/download/${still._id}`)).rawPayload.equals(original)).toBe(true);
    });

    it('pairs a MOV that came first with the still that follows, in one folder upload', async () => {
      const id = randomUUID();
      const album = await createFolder(alice, 'Trip');
      const mov = await upload(alice, 'IMG_0002.MOV', await liveMov(dir, id), album._id);
      const still = await upload(alice, 'IMG_0002.JPG', await liveStill(id), album._id);
      await t.app.background.drainJobs();
      expect(await pairOf(still._id)).toMatchObject({ videoFileId: mov._id });
      expect((await inGallery(alice, still._id))?.metadata.livePhoto).toEqual({ videoId: mov._id });
      expect(await inGallery(alice, mov._id)).toBeUndefined();
    });

    it('pairs a MOV first read alone with a still uploaded later', async () => {
      const id = randomUUID();
      const mov = await upload(alice, 'IMG_0003.MOV', await liveMov(dir, id));
      await t.app.background.drainJobs();
      expect(await inGallery(alice, mov._id)).toBeDefined();
      const still = await upload(alice, 'IMG_0003.JPG', await liveStill(id));
      await t.app.background.drainJobs();
      expect(await pairOf(still._id)).toMatchObject({ videoFileId: mov._id });
      expect(await inGallery(alice, mov._id)).toBeUndefined();
    });

    it("never pairs a still with another account's MOV of the same identifier", async () => {
      const id = randomUUID();
      const still = await upload(alice, 'IMG_0004.JPG', await liveStill(id));
      const theirs = await upload(bob, 'IMG_0004.MOV', await liveMov(dir, id));
      await t.app.background.drainJobs();
      expect(await motionRow(theirs._id)).toMatchObject({ contentId: id });
      expect(await pairOf(still._id)).toBeUndefined();
      expect(await db().selectFrom('livePhoto').selectAll().where('videoFileId', '=', theirs._id).execute()).toEqual([]);
      expect((await inGallery(alice, still._id))?.metadata.livePhoto).toBeUndefined();
      expect(await inGallery(bob, theirs._id)).toBeDefined();
    });

    it('unpairs when the MOV is deleted for good, or when the still is replaced or deleted', async () => {
      const id = randomUUID();
      const still = await upload(alice, 'IMG_0005.JPG', await liveStill(id));
      const mov = await upload(alice, 'IMG_0005.MOV', await liveMov(dir, id));
      await t.app.background.drainJobs();
      expect(await pairOf(still._id)).toBeDefined();

      // In the trash the MOV is no motion to show; the pair stays until it is deleted for good.
      expect((await alice.patch('/file-service/trash', { id: mov._id })).statusCode).toBe(200);
      expect((await inGallery(alice, still._id))?.metadata.livePhoto).toBeUndefined();
      expect((await alice.delete('/file-service/remove', { id: mov._id })).statusCode).toBe(200);
      expect(await pairOf(still._id)).toBeUndefined();

      // A new MOV pairs again; replacing the still with a plain photo unpairs it and shows the MOV.
      const again = await upload(alice, 'IMG_0005b.MOV', await liveMov(dir, id));
      await t.app.background.drainJobs();
      expect(await pairOf(still._id)).toMatchObject({ videoFileId: again._id });
      await replace(alice, still._id, 'IMG_0005.JPG', await pattern(96, 64).jpeg().toBuffer());
      await t.app.background.drainJobs();
      expect(await pairOf(still._id)).toBeUndefined();
      expect(await motionRow(still._id)).toMatchObject({ status: 'none', contentId: null });
      expect(await inGallery(alice, again._id)).toBeDefined();

      // The still back with its identifier pairs again; deleting it for good frees the MOV.
      await replace(alice, still._id, 'IMG_0005.JPG', await liveStill(id));
      await t.app.background.drainJobs();
      expect(await pairOf(still._id)).toMatchObject({ videoFileId: again._id });
      expect((await alice.delete('/file-service/remove', { id: still._id })).statusCode).toBe(200);
      expect(await db().selectFrom('livePhoto').selectAll().where('videoFileId', '=', again._id).execute()).toEqual([]);
      expect(await inGallery(alice, again._id)).toBeDefined();
    });

    it('pairs a still restored from the trash with the MOV that came while it was there', async () => {
      const id = randomUUID();
      const still = await upload(alice, 'IMG_0008.JPG', await liveStill(id));
      await t.app.background.drainJobs();
      expect((await alice.patch('/file-service/trash', { id: still._id })).statusCode).toBe(200);
      const mov = await upload(alice, 'IMG_0008.MOV', await liveMov(dir, id));
      await t.app.background.drainJobs();
      expect(await pairOf(still._id)).toBeUndefined();
      expect(await inGallery(alice, mov._id)).toBeDefined();
      expect((await alice.patch('/file-service/restore', { id: still._id })).statusCode).toBe(200);
      await t.app.background.drainJobs();
      expect(await pairOf(still._id)).toMatchObject({ videoFileId: mov._id });
      expect(await inGallery(alice, mov._id)).toBeUndefined();
    });

    it('reads and pairs the photos and videos stored before pairing existed', async () => {
      const id = randomUUID();
      const still = await upload(alice, 'IMG_0007.JPG', await liveStill(id));
      const mov = await upload(alice, 'IMG_0007.MOV', await liveMov(dir, id));
      await t.app.background.drainJobs();
      // As a drive from before: no motion read, no pair.
      await db().deleteFrom('livePhoto').where('photoFileId', '=', still._id).execute();
      await db().deleteFrom('fileMotion').where('fileId', 'in', [still._id, mov._id]).execute();
      await t.app.background.schedule();
      await t.app.background.drainJobs();
      expect(await pairOf(still._id)).toMatchObject({ videoFileId: mov._id });
    });

    it('ignores a maker note whose identifier lies outside it, and keeps the photo', async () => {
      const note = appleMakerNote('x');
      // The identifier's offset points far past the note's end.
      note.writeUInt32BE(0x7fff_fff0, 14 + 2 + 8);
      const still = await upload(alice, 'IMG_0006.JPG', await liveStill('x', note));
      await t.app.background.drainJobs();
      expect(await motionRow(still._id)).toMatchObject({ status: 'none', contentId: null });
      expect(await mediaRow(t.app, still._id)).toMatchObject({ status: 'ready' });
    });
  });

  describe('motion photos', () => {
    it('cuts the clip of a Camera:MotionPhoto out once, streams it with Range, and leaves the photo as it was', async () => {
      const clip = await clipMp4(dir);
      const photo = await motionPhoto(directoryXmp(clip.length), clip);
      const file = await upload(alice, 'PXL_0001.MP.jpg', photo);
      expect(file.metadata.contentType).toBe('image/jpeg');
      await t.app.background.drainJobs();
      const row = await motionRow(file._id);
      expect(row).toMatchObject({ status: 'ready', contentId: null, error: null });
      expect(Number(row!.clipSize)).toBe(clip.length);
      expect(await isStored(t.dataDir, row!.clipId!)).toBe(true);

      const shown = await inGallery(alice, file._id);
      expect(shown?.metadata.motion).toEqual({ url: `/file-service/motion/${file._id}` });
      expect(shown?.metadata.livePhoto).toBeUndefined();
      const whole = await alice.get(`/file-service/motion/${file._id}`);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('video/mp4');
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.rawPayload.equals(clip)).toBe(true);
      const part = await alice.request('GET', `/file-service/motion/${file._id}`, undefined, { range: 'bytes=100-199' });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-199/${clip.length}`);
      expect(part.rawPayload.equals(clip.subarray(100, 200))).toBe(true);
      const beyond = await alice.request('GET', `/file-service/motion/${file._id}`, undefined, { range: `bytes=${clip.length}-` });
      expect(beyond.statusCode).toBe(416);
      expect((await alice.get(`/file-service/download/${file._id}`)).rawPayload.equals(photo)).toBe(true);

      // The stream cookie alone plays it, as it plays videos.
      const issued = await alice.get('/file-service/download/access-token-stream-video');
      const cookie = issued.cookies.find((c) => c.name === 'motion-video-token');
      expect(cookie).toMatchObject({ path: '/file-service/motion', httpOnly: true, sameSite: 'Strict' });
      const viaCookie = await t.app.inject({
        method: 'GET',
        url: `/file-service/motion/${file._id}`,
        cookies: { 'motion-video-token': cookie!.value },
      });
      expect(viaCookie.statusCode).toBe(200);
      // Only the clip's own cookie counts there.
      const crossed = await t.app.inject({
        method: 'GET',
        url: `/file-service/motion/${file._id}`,
        cookies: { 'stream-video-token': cookie!.value },
      });
      expect(crossed.statusCode).toBe(401);

      // Read once: running the job again changes nothing.
      await t.app.background.drainJobs();
      expect((await motionRow(file._id))?.clipId).toBe(row!.clipId);
    });

    it('finds the clip of an older GCamera:MicroVideo by its offset from the end', async () => {
      const clip = await clipMp4(dir);
      const file = await upload(alice, 'MVIMG_0002.jpg', await motionPhoto(microVideoXmp(clip.length), clip));
      await t.app.background.drainJobs();
      expect(await motionRow(file._id)).toMatchObject({ status: 'ready' });
      expect((await alice.get(`/file-service/motion/${file._id}`)).rawPayload.equals(clip)).toBe(true);
    });

    it('checks the clip with nimbus check, carries it in backups, and releases it when the photo is replaced or deleted for good', async () => {
      const clip = await clipMp4(dir);
      const file = await upload(alice, 'PXL_0003.MP.jpg', await motionPhoto(directoryXmp(clip.length), clip));
      await t.app.background.drainJobs();
      const first = (await motionRow(file._id))!.clipId!;
      const integrity = integrityOf(t, { now: () => Date.now() });
      const clean = await check(integrity, { graceMs: 0 });
      expect(clean.problems).toEqual([]);
      expect(clean.counts.motionClips).toBeGreaterThanOrEqual(1);
      const backupDir = path.join(dir, 'backup');
      await createBackup(t.config, backupDir, { includeMasterKey: true });
      expect(await readFile(path.join(backupDir, 'blobs.ndjson'), 'utf8')).toContain(first);
      await flipByte(t, first);
      const damaged = await check(integrity, { graceMs: 0 });
      expect(damaged.problems.filter((p) => p.key === first).map((p) => p.role)).toEqual(['motion-clip']);

      await replace(alice, file._id, 'PXL_0003.MP.jpg', await motionPhoto(directoryXmp(clip.length), clip, 128));
      await t.app.background.drainJobs();
      expect(await isStored(t.dataDir, first)).toBe(false);
      const second = (await motionRow(file._id))!.clipId!;
      expect(second).not.toBe(first);
      expect(await isStored(t.dataDir, second)).toBe(true);

      expect((await alice.delete('/file-service/remove', { id: file._id })).statusCode).toBe(200);
      await t.app.background.drainJobs();
      expect(await isStored(t.dataDir, second)).toBe(false);
      expect((await check(integrity, { graceMs: 0 })).problems).toEqual([]);
    });

    it('fails a motion photo whose XMP places the video past the end, or whose video is no MP4, alone', async () => {
      const clip = await clipMp4(dir);
      const pastEnd = await upload(alice, 'bad-offset.jpg', await motionPhoto(microVideoXmp(clip.length * 50), clip));
      const noMp4 = await upload(alice, 'bad-mp4.jpg', await motionPhoto(directoryXmp(4000), Buffer.alloc(4000, 0x41)));
      // An ftyp box, then noise: it looks like an MP4 until it is read.
      const garbage = Buffer.concat([clip.subarray(0, 32), Buffer.alloc(3000, 0x5a)]);
      const bogus = await upload(alice, 'bogus-mp4.jpg', await motionPhoto(directoryXmp(garbage.length), garbage));
      const good = await upload(alice, 'good.jpg', await motionPhoto(directoryXmp(clip.length), clip));
      await t.app.background.drainJobs();

      for (const [file, error] of [
        [pastEnd, /outside the file/],
        [noMp4, /not an MP4/],
        [bogus, /Cannot read the motion photo video/],
      ] as const) {
        const row = await motionRow(file._id);
        expect(row, file.filename).toMatchObject({ status: 'failed', clipId: null });
        expect(row!.error).toMatch(error);
        // The photo itself is fine: its thumbnail is made, it shows without motion.
        expect(await mediaRow(t.app, file._id)).toMatchObject({ status: 'ready' });
        expect((await inGallery(alice, file._id))?.metadata.motion).toBeUndefined();
        expect((await alice.get(`/file-service/motion/${file._id}`)).statusCode).toBe(404);
      }
      expect(await motionRow(good._id)).toMatchObject({ status: 'ready' });
      // Failed for good: never retried.
      const failedJobs = await db().selectFrom('job').select('id').where('name', '=', 'file.motion').execute();
      expect(failedJobs).toEqual([]);
    });

    it('answers the clip route with 404 for ids it must not reveal and 400 for malformed ones', async () => {
      const clip = await clipMp4(dir);
      const file = await upload(alice, 'PXL_0005.MP.jpg', await motionPhoto(directoryXmp(clip.length), clip));
      const plain = await upload(alice, 'plain.txt', 'text');
      await t.app.background.drainJobs();
      expect((await bob.get(`/file-service/motion/${file._id}`)).statusCode).toBe(404);
      expect((await alice.get(`/file-service/motion/${plain._id}`)).statusCode).toBe(404);
      expect((await alice.get(`/file-service/motion/${randomUUID()}`)).statusCode).toBe(404);
      expect((await alice.get(`/file-service/motion/${'x'.repeat(65)}`)).statusCode).toBe(400);
      expect((await alice.get(`/file-service/motion/${encodeURIComponent("' OR 1=1 --")}`)).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: `/file-service/motion/${file._id}` })).statusCode).toBe(401);
      const info = (await alice.get(`/file-service/info/${file._id}`)).json<FileDto>();
      expect(info.metadata.motion).toBeUndefined();
    });
  });
});
