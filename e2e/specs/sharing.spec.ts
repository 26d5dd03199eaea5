import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toast, uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { apiList, apiUpload, openFromHome, signUp } from '../support/files';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const CONTENT = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 251));

beforeAll(async () => {
  [server, browser] = await Promise.all([startNimbus(), connectBrowser()]);
  ({ context, page } = await newSession(browser, server.baseUrl));
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  await signUp(page, uniqueEmail('share'));
  await apiUpload(page, 'contract.bin', CONTENT, 'application/octet-stream');
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const sharePopup = (target: Page) => target.getByTestId('share-popup');
const permission = (target: Page) => sharePopup(target).getByLabel('Permission');
const linkBox = (target: Page) => sharePopup(target).getByRole('textbox', { name: 'Link' });

/** Opens the file's details popup from the home list, then "Share" from its menu. */
async function openShare(target: Page): Promise<void> {
  await openFromHome(target, 'contract.bin');
  const details = target.getByTestId('file-details');
  await details.waitFor();
  await details.getByRole('button', { name: 'File actions' }).click();
  await target.getByRole('menuitem', { name: 'Share' }).click();
  await sharePopup(target).waitFor();
  await details.waitFor({ state: 'detached' });
}

/** Opens a public link in a fresh signed-out browser profile and downloads the file. */
async function downloadSignedOut(link: string): Promise<{ bytes: Buffer; visitor: BrowserContext; visitorPage: Page }> {
  const { context: visitor, page: visitorPage } = await newSession(browser, server.baseUrl);
  await visitorPage.goto(link);
  await visitorPage.getByTestId('popup-filename').waitFor();
  const [download] = await Promise.all([visitorPage.waitForEvent('download'), visitorPage.getByRole('link', { name: 'Download' }).click()]);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks), visitor, visitorPage };
}

describe('sharing', () => {
  it('makes a file public; the copied link downloads the same bytes signed out, until the link is removed', async () => {
    await openShare(page);
    await sharePopup(page).getByRole('heading', { name: 'Share file' }).waitFor();
    await expect.poll(() => linkBox(page).inputValue()).toBe('Document is private');
    await expect.poll(() => sharePopup(page).getByTestId('permission-help').textContent()).toBe('Only you can view and download this file');

    await permission(page).selectOption({ label: 'Public' });
    await toast(page, 'Public Link Generated');
    await expect
      .poll(() => sharePopup(page).getByTestId('permission-help').textContent())
      .toBe('Anyone with the link can view and download this file');
    const link = await linkBox(page).inputValue();
    const [file] = await apiList(page);
    expect(link).toBe(`${server.baseUrl}/public-download/${file!._id}/${file!.metadata.link}`);
    await sharePopup(page).getByRole('button', { name: 'Copy link' }).click();
    await toast(page, 'Link Copied');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await screenshot(page, 'share-popup');

    const { bytes, visitor, visitorPage } = await downloadSignedOut(link);
    expect(bytes.equals(CONTENT)).toBe(true);
    await expect.poll(() => visitorPage.getByTestId('fact-link-type').textContent()).toBe('Public');
    await expect.poll(() => visitorPage.getByTestId('fact-size').textContent()).toBe('68.36 KB');
    await visitorPage.getByRole('button', { name: 'Copy name' }).waitFor();
    await screenshot(visitorPage, 'public-download');

    await permission(page).selectOption({ label: 'Private' });
    await toast(page, 'Link Removed');
    await expect.poll(() => linkBox(page).inputValue()).toBe('Document is private');
    await visitorPage.reload();
    await toast(visitorPage, 'Error getting public file');
    await visitor.close();

    await sharePopup(page).getByRole('button', { name: 'Close' }).click();
    await sharePopup(page).waitFor({ state: 'detached' });
  });

  it('a temporary link downloads once, then shows "Error getting public file"', async () => {
    await openShare(page);
    await permission(page).selectOption({ label: 'Temporary' });
    await toast(page, 'Public Link Generated');
    await expect
      .poll(() => sharePopup(page).getByTestId('permission-help').textContent())
      .toBe(
        'This file will be available for download one time, after it is downloaded once the file will then automatically be marked as private.',
      );
    const link = await linkBox(page).inputValue();
    expect(link).toContain('/public-download/');

    const { bytes, visitor, visitorPage } = await downloadSignedOut(link);
    expect(bytes.equals(CONTENT)).toBe(true);
    await visitorPage.reload();
    await toast(visitorPage, 'Error getting public file');
    await visitor.close();
    expect((await apiList(page))[0]!.metadata.linkType).toBeUndefined();
  });
});
