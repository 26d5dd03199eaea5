import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toast, uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { apiCreateFolder, type SeededFolder } from '../support/drive';
import { apiList, apiUpload, makeMediaFixtures, signUp, waitForThumbnails } from '../support/files';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let holiday: SeededFolder;
let drops: SeededFolder;

const browserId = (target: Page) => target.evaluate(() => localStorage.getItem('browser-id') ?? '');

async function apiLink(body: Record<string, unknown>): Promise<{ id: string; token: string }> {
  const response = await page.request.post('/share-service/links', { headers: { uuid: await browserId(page) }, data: body });
  if (response.status() !== 201) throw new Error(`create link answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as { id: string; token: string };
}

async function bytesOf(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A fresh signed-out browser profile. */
async function visit(url: string): Promise<{ visitor: BrowserContext; visitorPage: Page }> {
  const { context: visitor, page: visitorPage } = await newSession(browser, server.baseUrl);
  await visitorPage.goto(url);
  return { visitor, visitorPage };
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startNimbus(), connectBrowser()]);
  ({ context, page } = await newSession(browser, server.baseUrl));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  await signUp(page, uniqueEmail('links'));
  holiday = await apiCreateFolder(page, 'Holiday');
  const day = await apiCreateFolder(page, 'Day 1', holiday._id);
  drops = await apiCreateFolder(page, 'Inbox');
  const { photos } = await makeMediaFixtures();
  const photo = await apiUpload(page, 'beach.jpg', photos[2]!.buffer, 'image/jpeg', holiday._id);
  await apiUpload(page, 'itinerary.txt', Buffer.from('day one: the coast'), 'text/plain', day._id);
  await waitForThumbnails(page, [photo._id]);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

describe('share links', () => {
  it('the owner links a folder from its details; a signed-out visitor browses it, previews a photo and downloads it all as a zip', async () => {
    await page.goto('/home');
    await page.getByRole('option', { name: 'Holiday' }).click();
    const panel = page.getByRole('complementary', { name: 'Details' });
    await panel.getByRole('button', { name: 'Create link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New link' });
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await toast(page, 'Link Created');
    await panel.getByTestId('share-link').waitFor();

    await page.getByRole('navigation', { name: 'Main menu' }).first().getByRole('link', { name: 'Shared', exact: true }).click();
    await page.waitForURL('**/shared');
    const row = page.getByTestId('share-link').filter({ hasText: 'Holiday' });
    await row.getByRole('button', { name: 'Copy link to Holiday' }).click();
    await toast(page, 'Link Copied');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${server.baseUrl}/s/[A-Za-z0-9_-]{43}$`));
    await screenshot(page, 'shared-page');

    const { visitor, visitorPage } = await visit(link);
    const folderPath = visitorPage.getByRole('navigation', { name: 'Folder path' });
    await expect.poll(() => folderPath.textContent()).toBe('Holiday');
    await visitorPage.getByRole('button', { name: 'Day 1' }).click();
    await expect.poll(() => folderPath.textContent()).toBe('Holiday/Day 1');
    await visitorPage.getByTestId('shared-file').filter({ hasText: 'itinerary.txt' }).waitFor();
    await folderPath.getByRole('button', { name: 'Holiday' }).click();
    await visitorPage.getByRole('button', { name: 'Open beach.jpg' }).click();
    const preview = visitorPage.getByRole('dialog', { name: 'beach.jpg' });
    await expect.poll(() => preview.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(640);
    await screenshot(visitorPage, 'shared-folder-preview');
    await preview.getByRole('button', { name: 'Close preview' }).click();
    await preview.waitFor({ state: 'detached' });

    const [download] = await Promise.all([
      visitorPage.waitForEvent('download'),
      visitorPage.getByRole('link', { name: 'Download all' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Holiday.zip');
    const zip = await bytesOf(download);
    expect(zip.subarray(0, 4).toString('binary')).toBe('PK\x03\x04');
    // Entries are stored, so their names and the text file's bytes are readable in the archive.
    expect(zip.includes('Holiday/Day 1/itinerary.txt')).toBe(true);
    expect(zip.includes('day one: the coast')).toBe(true);
    expect(zip.includes('Holiday/beach.jpg')).toBe(true);
    await visitor.close();
  });

  it('a password-protected link asks for the password, refuses a wrong one and opens with the right one', async () => {
    const { token } = await apiLink({ itemType: 'folder', itemId: holiday._id, password: 'sea breeze' });
    const { visitor, visitorPage } = await visit(`/s/${token}`);
    await visitorPage.getByRole('heading', { name: 'This link is protected' }).waitFor();
    expect(await visitorPage.getByText('Holiday').count()).toBe(0);
    await visitorPage.getByLabel('Password').fill('wrong guess');
    await visitorPage.getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => visitorPage.getByRole('alert').textContent()).toBe('Wrong password');
    await visitorPage.getByLabel('Password').fill('sea breeze');
    await visitorPage.getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => visitorPage.getByRole('navigation', { name: 'Folder path' }).textContent()).toBe('Holiday');
    // The unlock holds across a reload.
    await visitorPage.reload();
    await visitorPage.getByRole('button', { name: 'Open beach.jpg' }).waitFor();
    await visitor.close();
  });

  it('an upload-only link takes dropped and chosen files into the folder and shows nothing of it', async () => {
    await apiUpload(page, 'private-notes.txt', Buffer.from('not for guests'), 'text/plain', drops._id);
    const { token } = await apiLink({ itemType: 'folder', itemId: drops._id, kind: 'drop', maxFiles: 5 });
    const { visitor, visitorPage } = await visit(`/s/${token}`);
    await visitorPage.getByRole('heading', { name: 'Send files to “Inbox”' }).waitFor();
    expect(await visitorPage.getByText('private-notes.txt').count()).toBe(0);
    await visitorPage.getByLabel('Your name (optional)').fill('Grace');

    // Dropped onto the area, as from the desktop.
    const dataTransfer = await visitorPage.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }));
      return transfer;
    });
    await visitorPage.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
    // Chosen with the file picker; the name is taken already, so the stored copy gets its own.
    await visitorPage.getByLabel('Choose files', { exact: true }).setInputFiles({
      name: 'private-notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('a guest note'),
    });
    // A big one goes in resumable (tus) pieces.
    const big = Buffer.alloc(21 * 1024 * 1024, 7);
    const bigPath = path.join(await mkdtemp(path.join(tmpdir(), 'nimbus-drop-')), 'film.mov');
    await writeFile(bigPath, big);
    await visitorPage.getByLabel('Choose files', { exact: true }).setInputFiles(bigPath);
    const sent = visitorPage.getByRole('list', { name: 'Sent files' });
    await expect.poll(() => sent.locator('li[data-state="done"]').count(), { timeout: 60_000 }).toBe(3);
    expect(await sent.textContent()).toContain('Saved as private-notes (1).txt');
    await screenshot(visitorPage, 'file-drop');
    await visitor.close();
    await rm(path.dirname(bigPath), { recursive: true, force: true });

    const names = (await apiList(page, { parent: drops._id })).map((f) => f.filename).sort();
    expect(names).toEqual(['dropped.txt', 'film.mov', 'private-notes (1).txt', 'private-notes.txt']);
    expect((await apiList(page, { parent: drops._id })).find((f) => f.filename === 'film.mov')?.length).toBe(big.length);
    await page.goto(`/folder/${drops._id}`);
    await page.getByRole('option', { name: 'dropped.txt' }).click();
    await expect
      .poll(() => page.getByRole('complementary', { name: 'Details' }).getByTestId('item-links').textContent())
      .toContain('Received through a link from Grace');
  });
});
