import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOverviewDto } from '@nimbus/common';
import { createBackup } from '../../src/backup/index.js';
import type { FileRenditionRow } from '../../src/db/repositories/file-media.repository.js';
import { renditionArgs, renditionTimeLimitMs } from '../../src/media/video-transcode.js';
import { systemClock } from '../../src/services/clock.js';
import { upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { check, flipByte, integrityOf } from '../integrity/support.js';
import { isStored, makeVideo, skipWithoutFfmpeg } from './support.js';

interface Probed {
  format: { format_name: string };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
}

/** ffprobe's description of a video held in memory. */
async function probe(dir: string, bytes: Buffer): Promise<Probed> {
  const file = path.join(dir, `probe-${randomBytes(4).toString('hex')}`);
  await writeFile(file, bytes);
  const result = spawnSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  if (result.status !== 0) throw new Error(result.stderr.toString());
  return JSON.parse(result.stdout.toString()) as Probed;
}

/** MD5 of a video's first video stream's packets as stored: equal when a remux copied them untouched. */
async function videoPacketsMd5(dir: string, bytes: Buffer): Promise<string> {
  const file = path.join(dir, `packets-${randomBytes(4).toString('hex')}`);
  await writeFile(file, bytes);
  const result = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-f', 'md5', '-']);
  if (result.status !== 0) throw new Error(result.stderr.toString());
  return result.stdout.toString().trim();
}

/** An MP4 whose index (moov) comes before its media data (mdat): it plays before it has all arrived. */
function isFaststart(mp4: Buffer): boolean {
  const moov = mp4.indexOf('moov');
  const mdat = mp4.indexOf('mdat');
  return moov !== -1 && mdat !== -1 && moov < mdat;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const tone = ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1.5'];

describe.skipIf(skipWithoutFfmpeg)('video renditions', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let dir: string;

  const renditionRow = (fileId: string): Promise<FileRenditionRow | undefined> =>
    t.app.database.db.selectFrom('fileRendition').selectAll().where('fileId', '=', fileId).executeTakeFirst();
  const state = async (browser: TestBrowser, fileId: string) => {
    const res = await browser.get(`/file-service/video-info/${fileId}`);
    expect(res.statusCode).toBe(200);
    return (res.json() as { state: string }).state;
  };
  const stream = async (browser: TestBrowser, fileId: string, headers: Record<string, string> = {}) =>
    browser.request('GET', `/file-service/stream-video/${fileId}`, undefined, headers);

  let hevc: Buffer;

  beforeAll(async () => {
    t = await createTestApp({ video: { transcode: true, maxHeight: 240, threads: 1 } });
    alice = new TestBrowser(t.app);
    await alice.signUp();
    dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-rendition-'));
    hevc = await makeVideo(dir, 'hevc.mp4', [
      ...['-i', 'testsrc=duration=1.5:size=640x480:rate=24', ...tone],
      ...['-c:v', 'libx265', '-x265-params', 'log-level=error', '-tag:v', 'hvc1', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
    ]);
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('leaves an H.264/AAC MP4 as it is: it plays in browsers', async () => {
    const video = await makeVideo(dir, 'plays.mp4', [
      ...['-i', 'testsrc=duration=1:size=320x240:rate=24', ...tone],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
    ]);
    const file = await upload(alice, 'plays.mp4', video);
    await t.app.background.drainJobs();
    expect(await renditionRow(file._id)).toMatchObject({ status: 'original', blobKey: null, method: null });
    expect(await state(alice, file._id)).toBe('original');
    const res = await stream(alice, file._id);
    expect(res.statusCode).toBe(200);
    expect(sha256(res.rawPayload)).toBe(sha256(video));
  });

  it('transcodes HEVC in MP4 to H.264/AAC in a faststart MP4, scaled down; Range works; download gives the original', async () => {
    const file = await upload(alice, 'iphone.mp4', hevc);
    // Until the probe ran, the player is told to wait.
    expect(await state(alice, file._id)).toBe('preparing');
    await t.app.background.drainJobs();
    const row = (await renditionRow(file._id))!;
    expect(row).toMatchObject({ status: 'ready', method: 'transcode', contentType: 'video/mp4', error: null });
    expect(await state(alice, file._id)).toBe('ready');

    const res = await stream(alice, file._id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    const rendition = res.rawPayload;
    expect(rendition.length).toBe(row.size);
    expect(sha256(rendition)).toBe(row.sha256);
    expect(isFaststart(rendition)).toBe(true);
    const probed = await probe(dir, rendition);
    expect(probed.format.format_name).toContain('mp4');
    const v = probed.streams.find((s) => s.codec_type === 'video')!;
    expect(v).toMatchObject({ codec_name: 'h264', width: 320, height: 240 });
    expect(probed.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');

    const part = await stream(alice, file._id, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${rendition.length}`);
    expect(part.rawPayload.equals(rendition.subarray(100, 200))).toBe(true);

    const original = await alice.get(`/file-service/download/${file._id}`);
    expect(original.statusCode).toBe(200);
    expect(sha256(original.rawPayload)).toBe(sha256(hevc));
  });

  it('remuxes H.264/AAC in MKV without encoding it again', async () => {
    const mkv = await makeVideo(dir, 'camera.mkv', [
      ...['-i', 'testsrc=duration=1:size=320x240:rate=24', ...tone],
      ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
    ]);
    const file = await upload(alice, 'camera.mkv', mkv);
    expect(file.metadata.isVideo).toBe(true);
    await t.app.background.drainJobs();
    expect(await renditionRow(file._id)).toMatchObject({ status: 'ready', method: 'remux' });
    const rendition = (await stream(alice, file._id)).rawPayload;
    expect(isFaststart(rendition)).toBe(true);
    expect((await probe(dir, rendition)).format.format_name).toContain('mp4');
    expect(await videoPacketsMd5(dir, rendition)).toBe(await videoPacketsMd5(dir, mkv));
  });

  it('transcodes MPEG-2 in MPG and in AVI', async () => {
    for (const name of ['old.mpg', 'old.avi']) {
      const video = await makeVideo(dir, name, [
        ...['-i', 'testsrc=duration=1:size=352x288:rate=25', ...tone],
        ...['-c:v', 'mpeg2video', '-c:a', 'mp2', '-shortest'],
      ]);
      const file = await upload(alice, name, video);
      expect(file.metadata.isVideo).toBe(true);
      await t.app.background.drainJobs();
      expect(await renditionRow(file._id)).toMatchObject({ status: 'ready', method: 'transcode' });
      const probed = await probe(dir, (await stream(alice, file._id)).rawPayload);
      expect(probed.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    }
  });

  it('fails a malformed video alone, and the next one is converted', async () => {
    // A Matroska header followed by noise: sniffed as a video, decodable by nothing.
    const header = Buffer.from('1a45dfa3a34286810142f7810142f2810442f381084282886d6174726f736b61', 'hex');
    const hostile = await upload(alice, 'hostile.mkv', Buffer.concat([header, randomBytes(50_000)]));
    // HEVC cut short mid-stream.
    const truncated = await upload(alice, 'cut.mp4', hevc.subarray(0, Math.floor(hevc.length / 3)));
    const good = await upload(alice, 'good.mp4', hevc);
    await t.app.background.drainJobs();
    for (const id of [hostile._id, truncated._id]) {
      const row = (await renditionRow(id))!;
      expect(row.status).toBe('failed');
      expect(row.blobKey).toBeNull();
      expect(row.error).toMatch(/video/i);
      expect(await state(alice, id)).toBe('failed');
    }
    expect(await renditionRow(good._id)).toMatchObject({ status: 'ready' });
    // No job is left to retry the failures.
    const jobs = await t.app.database.db.selectFrom('job').select('name').where('name', 'like', 'video.%').execute();
    expect(jobs).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('refuses a video whose frames are too large to decode safely, before decoding any', async () => {
    // 8200×8200: a few hundred KB of red that would decode to 100 MB per frame.
    const bomb = await makeVideo(dir, 'bomb.mkv', [
      ...['-i', 'color=c=red:s=8200x8200:d=0.04:r=25', '-frames:v', '1'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ]);
    const file = await upload(alice, 'bomb.mkv', bomb);
    await t.app.background.drainJobs();
    expect(await renditionRow(file._id)).toMatchObject({
      status: 'failed',
      blobKey: null,
      error: "The video's frames are too large (8200×8200)",
    });
    expect(await state(alice, file._id)).toBe('failed');
  }, 120_000);

  it('is verified by nimbus check, carried by backups and counted in the admin overview', async () => {
    const file = await upload(alice, 'checked.mp4', hevc);
    await t.app.background.drainJobs();
    const row = (await renditionRow(file._id))!;
    expect(row.status).toBe('ready');

    const integrity = integrityOf(t, systemClock);
    const clean = await check(integrity);
    expect(clean.problems).toEqual([]);
    expect(clean.counts.renditions).toBeGreaterThanOrEqual(1);

    const backupDir = path.join(dir, 'backup');
    await createBackup(t.config, backupDir, { includeMasterKey: true });
    const index = await readFile(path.join(backupDir, 'blobs.ndjson'), 'utf8');
    expect(index).toContain(row.blobKey!);

    const overview = (await alice.get('/admin-service/overview')).json() as AdminOverviewDto;
    expect(overview.bytes.renditions).toBeGreaterThanOrEqual(row.size!);

    await flipByte(t, row.blobKey!);
    const damaged = await check(integrity);
    expect(damaged.problems.map((p) => ({ role: p.role, key: p.key }))).toEqual([{ role: 'rendition', key: row.blobKey }]);
  });

  it('releases the rendition when the file is deleted for good', async () => {
    const file = await upload(alice, 'deleted.mp4', hevc);
    await t.app.background.drainJobs();
    const key = (await renditionRow(file._id))!.blobKey!;
    expect(await isStored(t.dataDir, key)).toBe(true);
    expect((await alice.delete('/file-service/remove', { id: file._id })).statusCode).toBe(200);
    await t.app.background.drainJobs();
    expect(await renditionRow(file._id)).toBeUndefined();
    expect(await isStored(t.dataDir, key)).toBe(false);
  });

  it('releases the rendition when the content is replaced, and the new content gets its own verdict', async () => {
    const file = await upload(alice, 'replaced.mp4', hevc);
    await t.app.background.drainJobs();
    const old = (await renditionRow(file._id))!;
    expect(old.status).toBe('ready');
    const plays = await makeVideo(dir, 'replacement.mp4', [
      '-i',
      'testsrc=duration=1:size=160x120:rate=10',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
    ]);
    const { body, contentType } = await multipartBody([{ name: 'file', filename: 'replaced.mp4', data: plays }]);
    const replaced = await alice.request('POST', `/file-service/upload-version/${file._id}`, body, { 'content-type': contentType });
    expect(replaced.statusCode, replaced.body).toBeLessThan(300);
    await t.app.background.drainJobs();
    expect(await isStored(t.dataDir, old.blobKey!)).toBe(false);
    expect(await renditionRow(file._id)).toMatchObject({ status: 'original', blobKey: null });
    expect(sha256((await stream(alice, file._id)).rawPayload)).toBe(sha256(plays));
  });

  it("answers 404 for another user's video and for a file that is no video, 401 signed out, 400 for a bad id", async () => {
    const file = await upload(alice, 'mine.mp4', hevc);
    const bob = new TestBrowser(t.app);
    await bob.signUp();
    expect((await bob.get(`/file-service/video-info/${file._id}`)).statusCode).toBe(404);
    expect((await bob.get(`/file-service/video-info/${'0'.repeat(24)}`)).statusCode).toBe(404);
    expect((await new TestBrowser(t.app).get(`/file-service/video-info/${file._id}`)).statusCode).toBe(401);
    expect((await alice.get(`/file-service/video-info/${'x'.repeat(80)}`)).statusCode).toBe(400);
    const text = await upload(alice, 'notes.txt', 'not a video');
    expect((await alice.get(`/file-service/video-info/${text._id}`)).statusCode).toBe(404);
    await t.app.background.drainJobs();
  });

  it('caps ffmpeg at the configured threads and scales to the configured height', () => {
    const probe = { container: 'mov,mp4', videoCodec: 'hevc', pixelFormat: 'yuv420p', width: 3840, height: 2160 };
    const args = renditionArgs(
      'in',
      'out.mp4',
      { ...probe, audioCodec: 'aac', durationSeconds: 2 },
      { method: 'transcode' },
      {
        maxHeight: 720,
        threads: 3,
        sourceBytes: 1000,
      },
    );
    expect(args.filter((a, i) => args[i - 1] === '-threads')).toEqual(['3', '3']);
    expect(args[args.indexOf('-vf') + 1]).toBe('scale=-2:720');
    const portrait = renditionArgs(
      'in',
      'out.mp4',
      { ...probe, width: 2160, height: 3840, audioCodec: null, durationSeconds: 2 },
      { method: 'transcode' },
      {
        maxHeight: 720,
        threads: 1,
        sourceBytes: 1000,
      },
    );
    expect(portrait[portrait.indexOf('-vf') + 1]).toBe('scale=720:-2');
    // A minute of 1080p gets 16 minutes on one thread, 4 on four or more; 4K four times as long.
    const minute = { ...probe, width: 1920, height: 1080, audioCodec: null, durationSeconds: 60 };
    expect(renditionTimeLimitMs(minute, 1)).toBe(60_000 * 16 + 60_000);
    expect(renditionTimeLimitMs(minute, 8)).toBe(60_000 * 4 + 60_000);
    expect(renditionTimeLimitMs({ ...minute, width: 3840, height: 2160 }, 1)).toBe(60_000 * 64 + 60_000);
  });
});

describe.skipIf(skipWithoutFfmpeg)('video renditions turned off', () => {
  it('makes none and says so; the original streams', async () => {
    const t = await createTestApp({ video: { transcode: false, maxHeight: 1080, threads: 1 } });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-rendition-off-'));
    try {
      const alice = new TestBrowser(t.app);
      await alice.signUp();
      const video = await makeVideo(dir, 'hevc.mp4', [
        ...['-i', 'testsrc=duration=1:size=160x120:rate=10'],
        ...['-c:v', 'libx265', '-x265-params', 'log-level=error', '-pix_fmt', 'yuv420p'],
      ]);
      const file = await upload(alice, 'hevc.mp4', video);
      await t.app.background.drainJobs();
      expect(await t.app.database.db.selectFrom('fileRendition').selectAll().execute()).toEqual([]);
      expect((await alice.get(`/file-service/video-info/${file._id}`)).json()).toEqual({ state: 'off' });
      expect(sha256((await alice.get(`/file-service/stream-video/${file._id}`)).rawPayload)).toBe(sha256(video));
    } finally {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('records a video as skipped when ffmpeg is not installed', async () => {
    const t = await createTestApp({}, { ffmpegPath: '/nonexistent/ffmpeg' });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-rendition-none-'));
    try {
      const alice = new TestBrowser(t.app);
      await alice.signUp();
      const video = await makeVideo(dir, 'a.mkv', [
        '-i',
        'testsrc=duration=0.5:size=160x120:rate=10',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
      ]);
      const file = await upload(alice, 'a.mkv', video);
      await t.app.background.drainJobs();
      expect(await t.app.database.db.selectFrom('fileRendition').select(['status', 'error']).execute()).toEqual([
        { status: 'skipped', error: 'ffprobe is not installed' },
      ]);
      expect((await alice.get(`/file-service/video-info/${file._id}`)).json()).toEqual({ state: 'off' });
    } finally {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
