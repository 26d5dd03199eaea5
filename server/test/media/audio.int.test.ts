import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FileDto } from '@nimbus/common';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { dimensions, mediaRow, skipWithoutFfmpeg } from './support.js';

const TAGS = ['-metadata', 'title=Blue Hour', '-metadata', 'artist=The Nimbus Trio', '-metadata', 'album=Clouds & Rain'];

/** Three seconds of a tone, tagged, with a red cover as its attached picture when `cover` is given. */
function makeAudio(dir: string, name: string, cover: string | null, extra: string[] = []): Promise<Buffer> {
  const out = path.join(dir, name);
  const input = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3'];
  const picture = cover ? ['-i', cover, '-map', '0', '-map', '1', '-c:v', 'png', '-disposition:v', 'attached_pic'] : [];
  const args = ['-hide_banner', '-loglevel', 'error', '-y', ...input, ...picture, ...TAGS, ...extra, out];
  const result = spawnSync('ffmpeg', args);
  if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr.toString()}`);
  return readFile(out);
}

describe.skipIf(skipWithoutFfmpeg)('audio tags and cover art', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let bob: TestBrowser;
  let dir: string;
  let cover: string;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
    bob = new TestBrowser(t.app);
    await bob.signUp();
    dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-audio-'));
    cover = path.join(dir, 'cover.png');
    await sharp({ create: { width: 200, height: 200, channels: 3, background: '#d01010' } })
      .png()
      .toFile(cover);
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function info(id: string): Promise<FileDto> {
    return (await alice.get(`/file-service/info/${id}`)).json() as FileDto;
  }

  const FORMATS = [
    { name: 'song.mp3', extra: ['-id3v2_version', '3'] },
    { name: 'song.m4a', extra: [] },
    { name: 'song.flac', extra: [] },
  ];

  for (const format of FORMATS) {
    it(`reads title, artist, album and duration of ${format.name}, and its cover becomes the thumbnail`, async () => {
      const bytes = await makeAudio(dir, format.name, cover, format.extra);
      const file = await upload(alice, format.name, bytes);
      expect(file.metadata.contentType).toMatch(/^audio\//);
      await t.app.background.drainJobs();

      const ready = await info(file._id);
      expect(ready.metadata.hasThumbnail).toBe(true);
      const thumbnail = await alice.get(`/file-service/thumbnail/${ready.metadata.thumbnailID}`);
      expect(await dimensions(thumbnail.rawPayload)).toEqual({ width: 200, height: 200, format: 'webp' });
      const { channels } = await sharp(thumbnail.rawPayload).stats();
      expect(channels[0]!.mean).toBeGreaterThan(180);
      expect(channels[1]!.mean).toBeLessThan(60);

      const answer = await alice.get(`/file-service/audio-info/${file._id}`);
      expect(answer.statusCode).toBe(200);
      const tags = answer.json() as { title: string; artist: string; album: string; durationSeconds: number; hasCover: boolean };
      expect(tags).toMatchObject({ title: 'Blue Hour', artist: 'The Nimbus Trio', album: 'Clouds & Rain', hasCover: true });
      expect(tags.durationSeconds).toBeGreaterThan(2.9);
      expect(tags.durationSeconds).toBeLessThan(3.2);
      // The original keeps its bytes.
      expect((await alice.get(`/file-service/download/${file._id}`)).rawPayload.equals(bytes)).toBe(true);
    });
  }

  it('leaves an audio file without cover art with its icon, its tags still read', async () => {
    const file = await upload(alice, 'plain.mp3', await makeAudio(dir, 'plain.mp3', null));
    await t.app.background.drainJobs();
    expect(await mediaRow(t.app, file._id)).toMatchObject({ status: 'skipped', thumbnailId: null });
    expect((await alice.get(`/file-service/audio-info/${file._id}`)).json()).toMatchObject({ title: 'Blue Hour', hasCover: false });
  });

  it('answers nulls for a file whose tags cannot be read, and its job fails alone', async () => {
    // An ID3 header that claims a tag larger than the file, then noise.
    const broken = Buffer.concat([Buffer.from('ID3\x03\x00\x00\x7f\x7f\x7f\x7f', 'latin1'), Buffer.alloc(5000, 0xff)]);
    const file = await upload(alice, 'broken.mp3', broken);
    await t.app.background.drainJobs();
    const row = await mediaRow(t.app, file._id);
    expect(row?.thumbnailId).toBeNull();
    expect(['failed', 'skipped']).toContain(row?.status);
    const answer = await alice.get(`/file-service/audio-info/${file._id}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ title: null, artist: null, album: null, hasCover: false });
    expect(await t.app.database.db.selectFrom('job').selectAll().where('name', '=', 'file.thumbnail').execute()).toEqual([]);
  });

  it('refuses bad ids, files that are not audio and other people’s files', async () => {
    const song = await upload(alice, 'mine.mp3', await makeAudio(dir, 'mine.mp3', null));
    const text = await upload(alice, 'notes.txt', 'not a song');
    expect((await alice.get(`/file-service/audio-info/${'x'.repeat(65)}`)).json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await alice.get('/file-service/audio-info/nope')).json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect((await alice.get(`/file-service/audio-info/${text._id}`)).statusCode).toBe(404);
    const stranger = await bob.get(`/file-service/audio-info/${song._id}`);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect((await new TestBrowser(t.app).get(`/file-service/audio-info/${song._id}`)).statusCode).toBe(401);
  });
});
