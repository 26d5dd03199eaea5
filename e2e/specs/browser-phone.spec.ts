import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, toast, uniqueEmail } from '../support/app';
import { connectBrowser, PHONE } from '../support/browser';
import { apiCreateFolder, apiUploadFiles } from '../support/drive';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startNimbus(), connectBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A folder or file of the page's lists (not the Quick Access copy). */
const item = (page: Page, name: string) =>
  page.locator('[role="listbox"][aria-label="Files"], [role="listbox"][aria-label="Folders"]').getByRole('option', { name, exact: true });
const noSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** Holds a finger on the element for `ms` (Playwright has taps only). */
async function longPress(target: Locator, ms = 650): Promise<void> {
  const box = (await target.boundingBox())!;
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await target.evaluate((el, { x, y }) => {
    const touch = new Touch({ identifier: 1, target: el, clientX: x, clientY: y });
    el.dispatchEvent(new TouchEvent('touchstart', { touches: [touch], changedTouches: [touch], bubbles: true, cancelable: true }));
  }, point);
  await target.page().waitForTimeout(ms);
  await target.evaluate((el) => el.dispatchEvent(new TouchEvent('touchend', { touches: [], bubbles: true, cancelable: true })));
}

describe('a 390 px phone', () => {
  it('creates, selects by touch, opens menus by long press, moves and trashes', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: PHONE, hasTouch: true, isMobile: true });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await createAccount(page, uniqueEmail('phone'));
    await apiCreateFolder(page, 'Shelf');
    await apiUploadFiles(page, ['receipt.pdf', 'photo-notes.txt']);
    await page.reload();
    await item(page, 'receipt.pdf').waitFor();
    expect(await noSideways(page)).toBeLessThanOrEqual(PHONE.width);
    await expect.poll(() => page.getByRole('complementary', { name: 'Details' }).isVisible()).toBe(false);

    await page.getByRole('button', { name: 'Open menu' }).tap();
    const drawer = page.getByRole('complementary', { name: 'Side menu' }).last();
    await drawer.getByRole('button', { name: 'ADD NEW' }).tap();
    await drawer.getByRole('menuitem', { name: 'Create Folder' }).tap();
    await page.getByRole('dialog', { name: 'Create Folder' }).getByRole('textbox').fill('From phone');
    await page.getByRole('dialog', { name: 'Create Folder' }).getByRole('button', { name: 'Create' }).tap();
    await page.getByTestId('drawer-backdrop').tap({ position: { x: 380, y: 400 } });
    await item(page, 'From phone').waitFor();

    await item(page, 'receipt.pdf').tap();
    await expect.poll(() => item(page, 'receipt.pdf').getAttribute('aria-selected')).toBe('true');

    await longPress(item(page, 'photo-notes.txt'));
    const menu = page.getByRole('menu', { name: 'Actions for photo-notes.txt' });
    await menu.waitFor();
    await expect.poll(() => item(page, 'photo-notes.txt').getAttribute('aria-selected')).toBe('false');
    await menu.getByRole('menuitem', { name: 'Move' }).tap();
    const move = page.getByRole('dialog', { name: 'Move photo-notes.txt' });
    await move.getByRole('option', { name: 'Shelf' }).tap();
    await move.getByRole('button', { name: 'Confirm' }).tap();
    await toast(page, 'File Moved');
    await item(page, 'photo-notes.txt').waitFor({ state: 'detached' });

    await item(page, 'Shelf').tap();
    await item(page, 'Shelf').tap();
    await page.waitForURL('**/folder/**');
    await item(page, 'photo-notes.txt').waitFor();
    await page.getByRole('button', { name: 'Back' }).tap();
    await page.waitForURL('**/home');

    await longPress(item(page, 'receipt.pdf'));
    await page.getByRole('menu').getByRole('menuitem', { name: 'Multi-select' }).tap();
    await item(page, 'From phone').tap();
    const bar = page.getByRole('toolbar', { name: 'Selected items' });
    await bar.getByText('2 selected').waitFor();
    const barBox = (await bar.boundingBox())!;
    expect(barBox.x).toBeGreaterThanOrEqual(0);
    expect(barBox.x + barBox.width).toBeLessThanOrEqual(PHONE.width);
    await bar.getByRole('button', { name: 'Trash' }).tap();
    await page.getByRole('dialog', { name: 'Move to trash?' }).getByRole('button', { name: 'Yes' }).tap();
    await toast(page, 'Trashed');
    await item(page, 'receipt.pdf').waitFor({ state: 'detached' });

    await page.getByRole('searchbox', { name: 'Search files and folders' }).fill('receipt');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/search/receipt');
    await page.getByRole('button', { name: 'Open menu' }).tap();
    await page.getByRole('complementary', { name: 'Side menu' }).last().getByRole('link', { name: 'Trash' }).tap();
    await page.waitForURL('**/trash');
    await item(page, 'receipt.pdf').waitFor();
    expect(await noSideways(page)).toBeLessThanOrEqual(PHONE.width);
    await context.close();
  });
});
