import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toast, uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { apiUpload, signUp, waitForThumbnails, type ListedFile } from '../support/files';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';
import { repoRoot } from '../support/paths';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let photos: ListedFile[];

/** Where the evaluation keeps the Debian packages it downloads; shared so the package is fetched once per machine. */
const debsDir = path.join(repoRoot, 'server', 'eval', '.real-media', 'debs');
const SKIMAGE = { name: 'python3-skimage', file: 'usr/lib/python3/dist-packages/skimage/data/astronaut.png' };
/** Where the astronaut's face is in astronaut.png (512×512): left, top, width, height. */
const FACE = [181, 73, 83, 102] as const;

function run(tool: string, args: string[], cwd?: string): Promise<void> {
  return new Promise((resolve, reject) => execFile(tool, args, { cwd }, (error) => (error ? reject(error) : resolve())));
}

/** scikit-image's astronaut.png, a real photograph of Eileen Collins, from Debian's python3-skimage. */
async function astronautPhotograph(): Promise<Buffer> {
  await mkdir(debsDir, { recursive: true });
  const scratch = await mkdtemp(path.join(tmpdir(), 'nimbus-people-'));
  const findDeb = async (dir: string) => (await readdir(dir)).find((f) => f.startsWith(`${SKIMAGE.name}_`) && f.endsWith('.deb'));
  try {
    let deb = await findDeb(debsDir);
    if (!deb) {
      await run('apt-get', ['download', SKIMAGE.name], scratch);
      const fetched = await findDeb(scratch);
      if (!fetched) throw new Error(`apt-get download ${SKIMAGE.name} left no .deb`);
      // A rename, so a test running at the same time never reads half a package.
      await rename(path.join(scratch, fetched), path.join(debsDir, fetched));
      deb = fetched;
    }
    const unpacked = path.join(scratch, 'unpacked');
    await run('dpkg-deb', ['-x', path.join(debsDir, deb), unpacked]);
    return await readFile(path.join(unpacked, SKIMAGE.file));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The photograph as a camera JPEG, and a mirrored, cropped and enlarged copy of it, as an editor would save it. */
async function twoPhotosOfOneFace(): Promise<{ name: string; buffer: Buffer }[]> {
  const original = await astronautPhotograph();
  const [left, top, width, height] = FACE;
  const mirroredLeft = 512 - left - width;
  const crop = { left: Math.max(0, mirroredLeft - 130), top: 0, width: 340, height: Math.min(512, top + height + 160) };
  return [
    { name: 'IMG_0001.jpg', buffer: await sharp(original).jpeg({ quality: 90 }).toBuffer() },
    {
      name: 'IMG_0002.jpg',
      buffer: await sharp(original).flop().extract(crop).resize({ width: 800 }).jpeg({ quality: 85 }).toBuffer(),
    },
  ];
}

beforeAll(async () => {
  const [made, started, connected] = await Promise.all([twoPhotosOfOneFace(), startNimbus(), connectBrowser()]);
  [server, browser] = [started, connected];
  ({ context, page } = await newSession(browser, server.baseUrl));
  await signUp(page, uniqueEmail('people'));
  photos = [];
  for (const photo of made) photos.push(await apiUpload(page, photo.name, photo.buffer, 'image/jpeg'));
  await waitForThumbnails(
    page,
    photos.map((p) => p._id),
  );
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** Waits for the People page to show someone; it reads the people again by itself while photos wait. */
async function waitForPerson(target: Page, timeoutMs = 90_000): Promise<void> {
  const card = target.getByTestId('person-card').first();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await card.isVisible()) return;
    if (Date.now() > deadline) throw new Error('no person appeared on the People page');
    await card.waitFor({ timeout: 5_000 }).catch(async () => {
      // Past a wait the page missed (it stops reading once nothing waits): look again.
      await target.reload();
      await target.getByRole('heading', { name: 'People', exact: true }).waitFor();
    });
  }
}

describe('people in photos in Chromium', () => {
  it('finds one person in two photos of one face; named Anna, she is found by AI search; a wrong face leaves her; turned off, the People page says so', async () => {
    await page.getByRole('link', { name: 'Media' }).first().click();
    await page.waitForURL('**/media');
    await page.getByRole('link', { name: 'People', exact: true }).click();
    await page.waitForURL('**/people');
    await waitForPerson(page);
    const cards = page.getByTestId('person-card');
    expect(await cards.count()).toBe(1);
    await expect.poll(() => cards.first().getByText('2 photos').isVisible(), { timeout: 30_000 }).toBe(true);
    await page.getByTestId('face-crop').first().waitFor();
    expect(
      await page
        .getByTestId('face-crop')
        .first()
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    await screenshot(page, 'people-page');

    await cards.first().click();
    await page.waitForURL('**/people/*');
    await page.getByRole('button', { name: 'Add a name' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Anna');
    await page.keyboard.press('Enter');
    await toast(page, 'Name saved');
    await page.getByRole('heading', { name: 'Anna' }).waitFor();
    const tiles = page.getByTestId('person-photo');
    await expect.poll(() => tiles.count()).toBe(2);
    expect((await tiles.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-file-id')))).sort()).toEqual(
      photos.map((p) => p._id).sort(),
    );
    await page.getByText('2 photos').waitFor();
    await screenshot(page, 'person-page');

    // The usual preview opens from the person's photos.
    const first = page.getByRole('button', { name: 'IMG_0001.jpg', exact: true });
    await first.click();
    await first.click();
    await page.getByTestId('file-preview').getByRole('heading', { name: 'IMG_0001.jpg' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('file-preview').waitFor({ state: 'detached' });

    await page.getByRole('searchbox', { name: 'Search files and folders' }).fill('Anna');
    await page.getByRole('button', { name: 'AI search' }).click();
    await page.getByText('Best matches found').waitFor({ timeout: 30_000 });
    const results = page.getByRole('listbox', { name: 'Search results' }).getByRole('option');
    // Each row reads the file's type badge, then its name.
    const names = (await results.allTextContents()).map((text) => /IMG_\d+\.jpg/.exec(text)?.[0]);
    expect(names.sort()).toEqual(['IMG_0001.jpg', 'IMG_0002.jpg']);
    await screenshot(page, 'people-ai-search');

    // A wrong face is taken away from her: its photo leaves her page.
    await page.getByRole('complementary', { name: 'Details' }).click();
    await page.getByRole('button', { name: 'Not Anna: IMG_0002.jpg' }).click();
    await toast(page, 'Face removed');
    await expect.poll(() => tiles.count()).toBe(1);
    await page.getByText('1 photo', { exact: true }).waitFor();

    await page.getByRole('link', { name: 'Settings' }).first().click();
    await page.waitForURL('**/settings');
    await page.getByRole('button', { name: 'People in photos' }).click();
    const toggle = page.getByRole('switch', { name: 'People in photos' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await page.getByText('2 photos processed, 0 waiting').waitFor();
    await toggle.click();
    const dialog = page.getByRole('dialog', { name: 'Turn off people?' });
    await dialog.getByText('The faces found in your photos and the names you gave will be deleted.').waitFor();
    await dialog.getByRole('button', { name: 'Turn off' }).click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');

    await page.goto('/people');
    await page.getByText('People in photos is off').waitFor();
    expect(await page.getByTestId('person-card').count()).toBe(0);
    await screenshot(page, 'people-off');
  });
});
