import type { FileDto } from '@nimbus/common';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { dimensions, makeVideo, mediaRow, skipWithoutFfmpeg } from './support.js';

/** An MP4 file header followed by noise: sniffed as video/mp4, playable by nothing. */
const corruptMp4 = () =>
  Buffer.concat([Buffer.from('000000206674797069736f6d0000020069736f6d69736f32617663316d703431', 'hex'), randomBytes(20_000)]);

describe.skipIf(skipWithoutFfmpeg)('video poster frames', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
    dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-video-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('makes a 300 px wide poster of an MP4 whose index comes after the frames', async () => {
    const video = await makeVideo(dir, 'clip.mp4', [
      '-i',
      'testsrc=duration=3:size=320x240:rate=25',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
    ]);
    const file = await upload(alice, 'clip.mp4', video);
    expect(file.metadata.contentType).toBe('video/mp4');
    expect(file.metadata.isVideo).toBe(true);
    await t.app.background.drainJobs();

    const info = (await alice.get(`/file-service/info/${file._id}`)).json() as FileDto;
    expect(info.metadata.hasThumbnail).toBe(true);
    const poster = await alice.get(`/file-service/thumbnail/${info.metadata.thumbnailID}`);
    expect(poster.statusCode).toBe(200);
    expect(await dimensions(poster.rawPayload)).toEqual({ width: 300, height: 225, format: 'webp' });
    expect(await mediaRow(t.app, file._id)).toMatchObject({ status: 'ready', error: null, previewId: null });
  });

  it('takes the first frame of a video shorter than a second (WebM)', async () => {
    const video = await makeVideo(dir, 'short.webm', ['-i', 'testsrc=duration=0.4:size=160x120:rate=10', '-c:v', 'libvpx']);
    const file = await upload(alice, 'short.webm', video);
    expect(file.metadata.contentType).toBe('video/webm');
    await t.app.background.drainJobs();
    const info = (await alice.get(`/file-service/info/${file._id}`)).json() as FileDto;
    expect(info.metadata.hasThumbnail).toBe(true);
    const poster = await alice.get(`/file-service/thumbnail/${info.metadata.thumbnailID}`);
    expect(await dimensions(poster.rawPayload)).toEqual({ width: 160, height: 120, format: 'webp' });
  });

  it('records a corrupt video as failed without retrying it', async () => {
    const file = await upload(alice, 'broken.mp4', corruptMp4());
    await t.app.background.drainJobs();
    await t.app.background.drainJobs();
    const row = await mediaRow(t.app, file._id);
    expect(row).toMatchObject({ status: 'failed', thumbnailId: null });
    expect(row!.error).toMatch(/Cannot read the video/);
    const pending = await t.app.database.db.selectFrom('job').select('id').where('name', '=', 'file.thumbnail').execute();
    expect(pending).toEqual([]);
    expect(((await alice.get(`/file-service/info/${file._id}`)).json() as FileDto).metadata.hasThumbnail).toBe(false);
  });
});

describe('videos without ffmpeg', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, { ffmpegPath: path.join(os.tmpdir(), 'no-such-dir', 'ffmpeg') });
  });
  afterAll(() => t.close());

  it('still uploads, and the job records why it skipped', async () => {
    const alice = new TestBrowser(t.app);
    await alice.signUp();
    const video = corruptMp4();
    const file = await upload(alice, 'clip.mp4', video);
    expect(file.metadata.isVideo).toBe(true);
    await t.app.background.drainJobs();
    expect(await mediaRow(t.app, file._id)).toMatchObject({ status: 'skipped', error: 'ffmpeg is not installed', thumbnailId: null });
    expect((await alice.get(`/file-service/download/${file._id}`)).rawPayload.equals(video)).toBe(true);
  });
});
