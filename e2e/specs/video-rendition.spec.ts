import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { apiUpload, openFromHome, signUp, type ListedFile } from '../support/files';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let hevc: Buffer;
let file: ListedFile;

/** A 3-second HEVC/AAC MP4 as an iPhone records it (hvc1), which Chromium on Linux cannot decode. */
async function makeHevc(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'nimbus-hevc-'));
  try {
    const out = path.join(dir, 'iphone.mp4');
    const args = [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc=duration=3:size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3'],
      ...['-c:v', 'libx265', '-x265-params', 'log-level=error', '-tag:v', 'hvc1', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', out],
    ];
    await new Promise<void>((resolve, reject) => execFile('/usr/bin/ffmpeg', args, (error) => (error ? reject(error) : resolve())));
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  const [video, started, connected] = await Promise.all([makeHevc(), startNimbus(), connectBrowser()]);
  [hevc, server, browser] = [video, started, connected];
  ({ context, page } = await newSession(browser, server.baseUrl));
  await signUp(page, uniqueEmail('rendition'));
  file = await apiUpload(page, 'iphone.mp4', hevc, 'video/mp4');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const preview = (target: Page) => target.getByTestId('file-preview');

describe('a video the browser cannot play as stored', () => {
  it('plays its H.264 rendition in Chromium once ready, while Download gives the original', async () => {
    await openFromHome(page, 'iphone.mp4');
    await preview(page).waitFor();
    const video = preview(page).locator('[data-testid="preview-video"][data-playback="ready"]');
    // Until the rendition exists the preview says it is being prepared, then the player takes its place.
    await video.waitFor({ timeout: 90_000 });
    await page.waitForFunction(() => (document.querySelector('[data-testid="preview-video"]') as HTMLVideoElement | null)!.readyState >= 1);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(3);
    const start = await video.evaluate(async (v: HTMLVideoElement) => {
      v.muted = true;
      await v.play();
      return v.currentTime;
    });
    await page.waitForFunction(
      (from) => (document.querySelector('[data-testid="preview-video"]') as HTMLVideoElement).currentTime > from + 1,
      start,
      { timeout: 15_000 },
    );
    await expect.poll(() => page.getByText('cannot be played').count()).toBe(0);
    await screenshot(page, 'preview-video-rendition');

    const original = await page.evaluate(async (id) => {
      const res = await fetch(`/file-service/download/${id}`);
      return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
    }, file._id);
    expect(original).toEqual({ status: 200, bytes: hevc.length });
  });
});
