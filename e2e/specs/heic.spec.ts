import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { apiUpload, signUp, waitForThumbnails, type ListedFile } from '../support/files';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let photo: ListedFile;

function run(tool: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => execFile(tool, args, (error) => (error ? reject(error) : resolve())));
}

/** A 640×480 HEIC, red above and blue below, encoded by libheif's heif-enc from a PNG ffmpeg draws. */
async function makeHeic(): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'nimbus-heic-'));
  try {
    const png = path.join(dir, 'pattern.png');
    const heic = path.join(dir, 'photo.heic');
    await run('/usr/bin/ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'color=c=red:s=640x240', '-f', 'lavfi', '-i', 'color=c=blue:s=640x240'],
      ...['-filter_complex', 'vstack', '-frames:v', '1', png],
    ]);
    await run('/usr/bin/heif-enc', ['-q', '70', png, '-o', heic]);
    return await readFile(heic);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  const [heic, started, connected] = await Promise.all([makeHeic(), startNimbus(), connectBrowser()]);
  [server, browser] = [started, connected];
  ({ context, page } = await newSession(browser, server.baseUrl));
  await signUp(page, uniqueEmail('heic'));
  photo = await apiUpload(page, 'IMG_0001.HEIC', heic, 'image/heic');
  await waitForThumbnails(page, [photo._id]);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** The colour Chromium drew at a point of an image (fractions of its natural size): 'red', 'green' or 'blue'. */
function colourAt(target: Page, selector: string, x: number, y: number): Promise<string> {
  return target.evaluate(
    ({ selector, x, y }) => {
      const image = document.querySelector(selector) as HTMLImageElement;
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const [r, g, b] = context.getImageData(
        Math.floor(x * (image.naturalWidth - 1)),
        Math.floor(y * (image.naturalHeight - 1)),
        1,
        1,
      ).data;
      return r! > g! && r! > b! ? 'red' : g! > b! ? 'green' : 'blue';
    },
    { selector, x, y },
  );
}

describe('HEIC photos in Chromium', () => {
  it('shows a HEIC thumbnail in the media grid, upright, and the photo full size in the preview', async () => {
    await page.getByRole('link', { name: 'Media' }).first().click();
    await page.waitForURL('**/media');
    const tileImage = '[data-testid="media-item"][aria-label="IMG_0001.HEIC"] img';
    await page.waitForFunction(
      (selector) => (document.querySelector(selector) as HTMLImageElement | null)?.naturalWidth === 300,
      tileImage,
    );
    expect(await page.locator(tileImage).evaluate((image: HTMLImageElement) => image.naturalHeight)).toBe(225);
    expect(await colourAt(page, tileImage, 0.5, 0.1)).toBe('red');
    expect(await colourAt(page, tileImage, 0.5, 0.9)).toBe('blue');
    await screenshot(page, 'heic-media-grid');

    const tile = page.getByRole('button', { name: 'IMG_0001.HEIC', exact: true });
    await tile.click();
    await tile.click();
    const preview = '[data-testid="preview-image"]';
    await page.waitForFunction((selector) => (document.querySelector(selector) as HTMLImageElement | null)?.naturalWidth === 640, preview);
    expect(await page.locator(preview).getAttribute('src')).toBe(`/file-service/full-thumbnail/${photo._id}`);
    expect(await colourAt(page, preview, 0.5, 0.1)).toBe('red');
    expect(await colourAt(page, preview, 0.5, 0.9)).toBe('blue');
    await screenshot(page, 'heic-preview');
  });
});
