import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_PIXELS, PREVIEW_MAX_SIDE } from '../../src/media/image-thumbnailer.js';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { dimensions, hasFfmpeg, mediaRow, skipWithoutFfmpeg } from './support.js';

describe('hostile media', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let bait: Server;
  let baitUrl: string;
  const baitRequests: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({}, { ffmpegPath: hasFfmpeg ? 'ffmpeg' : null });
    alice = new TestBrowser(t.app);
    await alice.signUp();
    // Stands for an internal service (cloud metadata, a LAN admin page) a playlist would point at.
    bait = createServer((req, res) => {
      baitRequests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'video/mp2t' }).end(Buffer.alloc(188 * 10, 0x47));
    });
    await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
    baitUrl = `http://127.0.0.1:${(bait.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => bait.close(() => resolve()));
  });

  it.skipIf(skipWithoutFfmpeg)('never lets a playlist disguised as a video make the server fetch its URLs', async () => {
    const playlist = ['#EXTM3U', '#EXT-X-TARGETDURATION:10', '#EXTINF:10,', `${baitUrl}/secret/segment.ts`, '#EXT-X-ENDLIST', ''].join(
      '\n',
    );
    const file = await upload(alice, 'clip.mp4', playlist);
    expect(file.metadata.isVideo).toBe(true);
    for (let i = 0; i < 5 && (await t.app.background.drainJobs()) > 0; i++);
    expect(baitRequests).toEqual([]);
    expect(await mediaRow(t.app, file._id)).toMatchObject({ status: 'failed', thumbnailId: null });
  });

  it('does not decode an image over the pixel limit, and records it once as failed', async () => {
    const side = Math.ceil(Math.sqrt(MAX_INPUT_PIXELS)) + 100;
    const bomb = await sharp({ create: { width: side, height: side, channels: 3, background: '#000' } })
      .toColourspace('b-w')
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const file = await upload(alice, 'bomb.png', bomb);
    await t.app.background.drainJobs();
    const row = await mediaRow(t.app, file._id);
    expect(row).toMatchObject({ status: 'failed', thumbnailId: null, previewId: null });
    expect(row!.error).toMatch(/pixel limit/i);
    expect(await t.app.database.db.selectFrom('job').selectAll().where('name', '=', 'file.thumbnail').execute()).toEqual([]);
  });

  it(`makes previews of large images at most ${PREVIEW_MAX_SIDE} px on a side`, async () => {
    const tiff = await sharp({ create: { width: 6000, height: 3000, channels: 3, background: '#336699' } })
      .tiff({ compression: 'deflate' })
      .toBuffer();
    const file = await upload(alice, 'scan.tiff', tiff);
    await t.app.background.drainJobs();
    const preview = await alice.get(`/file-service/full-thumbnail/${file._id}`);
    expect(preview.statusCode).toBe(200);
    expect(await dimensions(preview.rawPayload)).toMatchObject({ width: PREVIEW_MAX_SIDE, height: PREVIEW_MAX_SIDE / 2 });
  });
});
