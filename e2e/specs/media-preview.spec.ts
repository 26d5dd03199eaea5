import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toast, uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { apiUpload, makeMediaFixtures, openFromHome, signUp, waitForThumbnails, type ListedFile } from '../support/files';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const uploaded: ListedFile[] = [];

beforeAll(async () => {
  const [fixtures, started, connected] = await Promise.all([makeMediaFixtures(), startNimbus(), connectBrowser()]);
  [server, browser] = [started, connected];
  ({ context, page } = await newSession(browser, server.baseUrl));
  await signUp(page, uniqueEmail('media'));
  // Oldest first: red, green, blue, then the video.
  for (const photo of fixtures.photos) uploaded.push(await apiUpload(page, photo.name, photo.buffer, photo.mimeType));
  uploaded.push(await apiUpload(page, fixtures.video.name, fixtures.video.buffer, fixtures.video.mimeType));
  uploaded.push(await apiUpload(page, 'report.bin', Buffer.from('quarterly numbers'), 'application/octet-stream'));
  await waitForThumbnails(
    page,
    uploaded.slice(0, 3).map((f) => f._id),
  );
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const tiles = (target: Page) => target.getByTestId('media-item');
const tileNames = (target: Page) => tiles(target).evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
const preview = (target: Page) => target.getByTestId('file-preview');

async function openMedia(target: Page): Promise<void> {
  await target.getByRole('link', { name: 'Media' }).first().click();
  await target.waitForURL('**/media');
  await target.getByRole('heading', { name: 'Photos and Videos' }).waitFor();
}

/** Selects a tile, then opens it with a second click. */
async function openTile(target: Page, name: string): Promise<void> {
  const tile = target.getByRole('button', { name, exact: true });
  await tile.click();
  await tile.click();
  await preview(target).waitFor();
}

describe('media gallery', () => {
  it('filters photos and videos, sorts both ways and marks videos with a play badge', async () => {
    await openMedia(page);
    await tiles(page).nth(3).waitFor();
    expect(await tileNames(page)).toEqual(['clip.webm', 'blue.jpg', 'green.jpg', 'red.jpg']);
    await expect.poll(() => page.getByTestId('play-badge').count()).toBe(1);
    await expect.poll(() => page.locator('[data-testid="media-item"][data-video="true"]').getAttribute('aria-label')).toBe('clip.webm');
    await page.locator('[data-testid="media-item"] img').first().waitFor();
    await screenshot(page, 'media-page');

    const filter = page.getByRole('group', { name: 'Media filter' });
    await filter.getByRole('button', { name: 'Photos' }).click();
    await page.getByRole('heading', { name: 'Photos', exact: true }).waitFor();
    await expect.poll(() => tileNames(page)).toEqual(['blue.jpg', 'green.jpg', 'red.jpg']);
    await filter.getByRole('button', { name: 'Videos' }).click();
    await page.getByRole('heading', { name: 'Videos', exact: true }).waitFor();
    await expect.poll(() => tileNames(page)).toEqual(['clip.webm']);
    await filter.getByRole('button', { name: 'All' }).click();
    await page.getByRole('heading', { name: 'Photos and Videos' }).waitFor();

    await page.getByRole('button', { name: 'Sort ascending' }).click();
    await expect.poll(() => tileNames(page)).toEqual(['red.jpg', 'green.jpg', 'blue.jpg', 'clip.webm']);
    await page.getByRole('button', { name: 'Sort descending' }).click();
    await expect.poll(() => tileNames(page)).toEqual(['clip.webm', 'blue.jpg', 'green.jpg', 'red.jpg']);
  });

  it('shows an error icon when a thumbnail fails to load', async () => {
    await page.route('**/file-service/thumbnail/**', (route) => route.abort());
    try {
      await page.reload();
      await page.getByRole('heading', { name: 'Photos and Videos' }).waitFor();
      // Each failing thumbnail is retried once before its icon shows, so they appear one by one.
      await expect.poll(() => page.getByTestId('thumbnail-error').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    } finally {
      await page.unroute('**/file-service/thumbnail/**');
    }
    await page.reload();
    await page.locator('[data-testid="media-item"] img').first().waitFor();
  });

  it('previews the full image with previous/next among media, and browser back closes it', async () => {
    await openTile(page, 'green.jpg');
    const image = page.getByTestId('preview-image');
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="preview-image"]') as HTMLImageElement | null)?.naturalWidth === 640,
    );
    await expect.poll(() => image.getAttribute('src')).toBe(`/file-service/full-thumbnail/${uploaded[1]!._id}`);
    await expect.poll(() => page.getByTestId('type-badge').textContent()).toBe('JPG');
    await screenshot(page, 'preview-popup');

    await preview(page).getByRole('button', { name: 'Next file' }).click();
    await preview(page).getByRole('heading', { name: 'red.jpg' }).waitFor();
    await expect.poll(() => preview(page).getByRole('button', { name: 'Next file' }).count()).toBe(0);
    await preview(page).getByRole('button', { name: 'Previous file' }).click();
    await preview(page).getByRole('heading', { name: 'green.jpg' }).waitFor();
    await preview(page).getByRole('button', { name: 'Previous file' }).click();
    await preview(page).getByRole('heading', { name: 'blue.jpg' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await preview(page).getByRole('heading', { name: 'clip.webm' }).waitFor();
    await page.keyboard.press('ArrowRight');
    await preview(page).getByRole('heading', { name: 'blue.jpg' }).waitFor();

    await page.goBack();
    await preview(page).waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/media');

    await openTile(page, 'red.jpg');
    await page.getByTestId('preview-stage').click({ position: { x: 5, y: 5 } });
    await preview(page).waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/media');
  });

  it('streams the video and seeks in it', async () => {
    await openTile(page, 'clip.webm');
    const video = page.getByTestId('preview-video');
    await video.waitFor();
    await page.waitForFunction(() => (document.querySelector('[data-testid="preview-video"]') as HTMLVideoElement | null)!.readyState >= 1);
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(6);
    await video.evaluate(async (v: HTMLVideoElement) => {
      v.muted = true;
      v.currentTime = 3;
      await v.play();
    });
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="preview-video"]') as HTMLVideoElement).currentTime > 3.5,
      undefined,
      {
        timeout: 10_000,
      },
    );
    await expect.poll(() => page.getByText('Error getting video').count()).toBe(0);
    await screenshot(page, 'preview-video');
    await preview(page).getByRole('button', { name: 'Close preview' }).click();
    await preview(page).waitFor({ state: 'detached' });
  });

  it('shows "Error loading image" when the full image cannot be loaded', async () => {
    await page.route('**/file-service/full-thumbnail/**', (route) => route.fulfill({ status: 500, body: 'no' }));
    try {
      await openTile(page, 'blue.jpg');
      await preview(page).getByText('Error loading image').waitFor();
    } finally {
      await page.unroute('**/file-service/full-thumbnail/**');
    }
    await page.keyboard.press('Escape');
    await preview(page).waitFor({ state: 'detached' });
  });

  it('shows the details popup for a file without a preview', async () => {
    await openFromHome(page, 'report.bin');
    const details = page.getByTestId('file-details');
    await details.waitFor();
    await details.getByText('File details').waitFor();
    await expect.poll(() => details.getByTestId('fact-link-type').textContent()).toBe('Private');
    await expect.poll(() => details.getByTestId('fact-size').textContent()).toBe('17 B');
    await expect.poll(() => details.getByTestId('fact-upload-date').textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}(am|pm)$/);
    await details.getByRole('button', { name: 'Copy name' }).click();
    await toast(page, 'Filename Copied');
    await screenshot(page, 'details-popup');

    const [download] = await Promise.all([page.waitForEvent('download'), details.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('report.bin');
    await details.getByRole('button', { name: 'Close' }).click();
    await details.waitFor({ state: 'detached' });
  });
});
