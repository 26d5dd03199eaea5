import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, uniqueEmail } from '../support/app';
import { connectBrowser, newSession } from '../support/browser';
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

const names = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}.txt`);
const scroller = (page: Page) => page.getByTestId('browser-scroll');
const scrollTop = (page: Page) => scroller(page).evaluate((el) => Math.round(el.scrollTop));
const fileCount = (page: Page) => page.locator('section[data-file-count]').getAttribute('data-file-count');

/** Scrolls the list to its end step by step, collecting the names of the files rendered on the way (the grid is windowed). */
async function scrollThrough(page: Page): Promise<Set<string>> {
  const seen = new Set<string>();
  for (let step = 0; step < 200; step++) {
    const done = await scroller(page).evaluate((el) => {
      el.scrollTop += el.clientHeight * 0.8;
      return el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
    });
    await page.waitForTimeout(60);
    for (const name of await page
      .locator('[aria-label="Files"] [role="option"]')
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label'))))
      if (name) seen.add(name);
    if (done && (await page.getByRole('status', { name: 'Loading more files' }).count()) === 0) {
      await page.waitForTimeout(300);
      const still = await scroller(page).evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2);
      if (still && (await page.getByRole('status', { name: 'Loading more files' }).count()) === 0) break;
    }
  }
  return seen;
}

describe('paging and scroll position', () => {
  it('scrolling shows all 120 files with exactly one request per page', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    await createAccount(page, uniqueEmail('paging'));
    const seeded = await apiUploadFiles(page, names(120, 'file'));
    expect(seeded).toHaveLength(120);
    const lists: URL[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/file-service/list')) lists.push(new URL(request.url()));
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Home Files' }).waitFor();
    await page.locator('[aria-label="Files"] [role="option"]').first().waitFor();
    expect(lists).toHaveLength(1);

    const seen = await scrollThrough(page);
    expect(seen.size).toBe(120);
    expect(await fileCount(page)).toBe('120');
    expect(lists).toHaveLength(3);
    expect(lists.map((url) => url.searchParams.get('limit'))).toEqual(['50', '50', '50']);
    expect(lists[0]!.searchParams.has('startAt')).toBe(false);
    const cursors = lists.slice(1).map((url) => url.searchParams.get('startAtId'));
    expect(new Set(cursors).size).toBe(2);
    expect(lists.slice(1).every((url) => url.searchParams.get('startAt') === 'true' && url.searchParams.get('startAtDate'))).toBe(true);
    await context.close();
  });

  it('back and forward keep the scroll position of each page', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    await createAccount(page, uniqueEmail('scroll'));
    const big = await apiCreateFolder(page, 'Big folder');
    await apiUploadFiles(page, names(100, 'home'));
    await apiUploadFiles(page, names(100, 'inner'), big._id);
    await page.reload();
    await page.locator('[aria-label="Files"] [role="option"]').first().waitFor();

    await scroller(page).evaluate((el) => el.scrollTo(0, 1500));
    await page.waitForTimeout(200);
    expect(await scrollTop(page)).toBe(1500);
    const box = page.getByRole('searchbox', { name: 'Search files and folders' });
    await box.fill('Big folder');
    await page.getByTestId('search-dropdown').getByRole('option', { name: 'Big folder' }).click();
    await page.waitForURL(`**/folder/${big._id}`);
    await page.locator('[aria-label="inner-099.txt"]').waitFor();
    expect(await scrollTop(page)).toBe(0);
    await scroller(page).evaluate((el) => el.scrollTo(0, 900));
    await page.waitForTimeout(200);

    await page.goBack();
    await page.waitForURL('**/home');
    await expect.poll(() => scrollTop(page)).toBe(1500);
    await page.goForward();
    await page.waitForURL(`**/folder/${big._id}`);
    await expect.poll(() => scrollTop(page)).toBe(900);
    await page.getByRole('button', { name: 'Back' }).click();
    await page.waitForURL('**/home');
    await expect.poll(() => scrollTop(page)).toBe(1500);
    await context.close();
  });
});
