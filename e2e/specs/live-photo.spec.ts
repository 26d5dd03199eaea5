import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { apiList, apiUpload, signUp, type ListedFile } from '../support/files';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let still: ListedFile;
let mov: ListedFile;
let motion: ListedFile;

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('/usr/bin/ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], (error) => (error ? reject(error) : resolve())),
  );
}

/** A JPEG APP1 segment, put right after the start-of-image marker. */
function withApp1(jpeg: Buffer, body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xffe1, 0);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, body, jpeg.subarray(2)]);
}

/** Exif whose Exif IFD holds an Apple maker note with the ContentIdentifier (tag 0x11), as an iPhone writes it. */
function appleExif(contentId: string): Buffer {
  const id = Buffer.from(`${contentId}\0`, 'latin1');
  const noteHead = Buffer.concat([Buffer.from('Apple iOS\0', 'latin1'), Buffer.from([0, 1]), Buffer.from('MM', 'latin1')]);
  const noteIfd = Buffer.alloc(18);
  noteIfd.writeUInt16BE(1, 0);
  noteIfd.writeUInt16BE(0x11, 2);
  noteIfd.writeUInt16BE(2, 4);
  noteIfd.writeUInt32BE(id.length, 6);
  noteIfd.writeUInt32BE(noteHead.length + noteIfd.length, 10);
  const note = Buffer.concat([noteHead, noteIfd, id]);
  const tiff = Buffer.alloc(44 + note.length);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x8769, 10);
  tiff.writeUInt16BE(4, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt32BE(26, 18);
  tiff.writeUInt16BE(1, 26);
  tiff.writeUInt16BE(0x927c, 28);
  tiff.writeUInt16BE(7, 30);
  tiff.writeUInt32BE(note.length, 32);
  tiff.writeUInt32BE(44, 36);
  note.copy(tiff, 44);
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
}

function motionXmp(videoLength: number): Buffer {
  const xmp =
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description rdf:about="" xmlns:Camera="http://ns.google.com/photos/1.0/camera/" ' +
    'xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/" ' +
    'Camera:MotionPhoto="1" Camera:MotionPhotoVersion="1"><Container:Directory><rdf:Seq>' +
    '<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0"/></rdf:li>' +
    `<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="${videoLength}"/></rdf:li>` +
    '</rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>';
  return Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(xmp)]);
}

/** An iPhone Live Photo (a JPEG and its H.264 MOV sharing a content identifier) and a Google motion photo, made with ffmpeg. */
async function makeFixtures(): Promise<{ still: Buffer; mov: Buffer; motion: Buffer }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'nimbus-live-'));
  try {
    const id = randomUUID().toUpperCase();
    const h264 = ['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-g', '10'];
    await Promise.all([
      ffmpeg(['-f', 'lavfi', '-i', 'color=c=orange:s=320x240', '-frames:v', '1', path.join(dir, 'still.jpg')]),
      ffmpeg(['-f', 'lavfi', '-i', 'color=c=purple:s=320x240', '-frames:v', '1', path.join(dir, 'motion.jpg')]),
      ffmpeg([
        ...['-f', 'lavfi', '-i', 'testsrc=duration=3:size=320x240:rate=25', ...h264],
        ...['-metadata', `com.apple.quicktime.content.identifier=${id}`, '-movflags', 'use_metadata_tags'],
        path.join(dir, 'live.mov'),
      ]),
      ffmpeg([
        '-f',
        'lavfi',
        '-i',
        'testsrc2=duration=3:size=320x240:rate=25',
        ...h264,
        '-movflags',
        '+faststart',
        path.join(dir, 'clip.mp4'),
      ]),
    ]);
    const clip = await readFile(path.join(dir, 'clip.mp4'));
    return {
      still: withApp1(await readFile(path.join(dir, 'still.jpg')), appleExif(id)),
      mov: await readFile(path.join(dir, 'live.mov')),
      motion: Buffer.concat([withApp1(await readFile(path.join(dir, 'motion.jpg')), motionXmp(clip.length)), clip]),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  const [fixtures, started, connected] = await Promise.all([makeFixtures(), startNimbus(), connectBrowser()]);
  [server, browser] = [started, connected];
  ({ context, page } = await newSession(browser, server.baseUrl));
  await signUp(page, uniqueEmail('live'));
  still = await apiUpload(page, 'IMG_0001.JPG', fixtures.still, 'image/jpeg');
  mov = await apiUpload(page, 'IMG_0001.MOV', fixtures.mov, 'video/quicktime');
  motion = await apiUpload(page, 'PXL_0001.MP.jpg', fixtures.motion, 'image/jpeg');
  // The pair and the clip are made in the background.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const files = (await apiList(page, { mediaMode: 'true' })) as (ListedFile & { metadata: { livePhoto?: unknown; motion?: unknown } })[];
    const ready = files.find((f) => f._id === still._id)?.metadata.livePhoto && files.find((f) => f._id === motion._id)?.metadata.motion;
    if (ready) break;
    if (Date.now() > deadline) throw new Error('the Live Photo was not paired in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const tileNames = (target: Page) =>
  target.getByTestId('media-item').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
const playedSeconds = (target: Page, testId: string) =>
  target.getByTestId(testId).evaluate((video) => (video as HTMLVideoElement).currentTime);

describe('Live Photos and motion photos in Chromium', () => {
  it('shows a Live Photo once with a LIVE badge, and plays its motion while hovered', async () => {
    await page.getByRole('link', { name: 'Media' }).first().click();
    await page.waitForURL('**/media');
    await expect.poll(() => tileNames(page)).toEqual(['PXL_0001.MP.jpg', 'IMG_0001.JPG']);
    expect(await page.getByTestId('live-badge').count()).toBe(2);
    expect(mov._id).toBeTruthy();

    const live = page.getByRole('button', { name: 'IMG_0001.JPG', exact: true });
    await live.hover();
    await live.getByTestId('live-motion').waitFor();
    await expect.poll(() => playedSeconds(page, 'live-motion'), { timeout: 15_000 }).toBeGreaterThan(0.2);
    await screenshot(page, 'live-photo-hover');
    await page.mouse.move(0, 0);
    await expect.poll(() => live.getByTestId('live-motion').count()).toBe(0);

    const clip = page.getByRole('button', { name: 'PXL_0001.MP.jpg', exact: true });
    await clip.hover();
    await expect.poll(() => playedSeconds(page, 'live-motion'), { timeout: 15_000 }).toBeGreaterThan(0.2);
    await page.mouse.move(0, 0);
  });

  it('plays the motion from the preview, and still downloads the photo as it was', async () => {
    const live = page.getByRole('button', { name: 'IMG_0001.JPG', exact: true });
    await live.click();
    await live.click();
    const preview = page.getByTestId('file-preview');
    await preview.getByTestId('preview-image').waitFor();
    await preview.getByRole('button', { name: 'LIVE' }).click();
    await expect.poll(() => playedSeconds(page, 'preview-live-motion'), { timeout: 15_000 }).toBeGreaterThan(0.2);
    await preview.getByRole('button', { name: 'Close preview' }).click();
    await preview.waitFor({ state: 'detached' });

    const uuid = await page.evaluate(() => localStorage.getItem('browser-id') ?? '');
    const download = await page.request.get(`/file-service/download/${still._id}`, { headers: { uuid } });
    expect(download.ok()).toBe(true);
    expect((await download.body()).subarray(0, 4).toString('hex')).toBe('ffd8ffe1');
  });
});
