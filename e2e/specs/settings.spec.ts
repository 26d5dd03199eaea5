import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, login, openSettings, PASSWORD, toast, uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
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

const preference = (page: Page, name: string) => page.getByRole('combobox', { name });
const chosen = (page: Page, name: string) => preference(page, name).evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.text);

const STORAGE_KEYS = ['list-mode', 'sort-name', 'order-asc', 'single-click-folders', 'not-load-thumbnails'];

describe('settings', () => {
  it('general preferences are saved and survive a reload', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    await createAccount(page, uniqueEmail('prefs'));
    await openSettings(page);
    await page.getByRole('button', { name: 'General' }).click();
    expect(await chosen(page, 'File list style')).toBe('Grid');

    await preference(page, 'File list style').selectOption({ label: 'List' });
    await preference(page, 'Sort by').selectOption({ label: 'Name' });
    await preference(page, 'Order by').selectOption({ label: 'Ascending' });
    await preference(page, 'Single click to enter folders').selectOption({ label: 'Enabled' });
    await preference(page, 'Load thumbnails').selectOption({ label: 'Disabled' });
    await screenshot(page, 'settings-general');
    const stored = await page.evaluate((keys) => keys.map((key) => localStorage.getItem(key)), STORAGE_KEYS);
    expect(stored).toEqual(['true', 'true', 'true', 'true', 'true']);

    await page.reload();
    await page.getByRole('button', { name: 'General' }).click();
    expect(await chosen(page, 'File list style')).toBe('List');
    expect(await chosen(page, 'Sort by')).toBe('Name');
    expect(await chosen(page, 'Order by')).toBe('Ascending');
    expect(await chosen(page, 'Single click to enter folders')).toBe('Enabled');
    expect(await chosen(page, 'Load thumbnails')).toBe('Disabled');

    await page.getByRole('link', { name: 'HOME', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'List view' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.getByRole('combobox', { name: 'Sort by' }).inputValue()).toBe('name');
    await expect
      .poll(() => page.getByRole('button', { name: /Sort direction/ }).getAttribute('aria-label'))
      .toBe('Sort direction: ascending');

    await openSettings(page);
    await page.getByRole('button', { name: 'General' }).click();
    await preference(page, 'File list style').selectOption({ label: 'Grid' });
    await expect.poll(() => page.evaluate(() => localStorage.getItem('list-mode'))).toBeNull();
    await context.close();
  });

  it('changes the password', async () => {
    const email = uniqueEmail('change');
    const { context, page } = await newSession(browser, server.baseUrl);
    await createAccount(page, email);
    await openSettings(page);
    await page.getByRole('button', { name: 'Change', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.getByLabel('Current password').fill(`${PASSWORD}-wrong`);
    await dialog.getByLabel('New password', { exact: true }).fill('brand-new-pass');
    await dialog.getByLabel('Verify new password').fill('brand-new-pass');
    await screenshot(page, 'settings-change-password');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await dialog.getByRole('alert').getByText('Incorrect password').waitFor();

    await dialog.getByLabel('Current password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Password Changed');
    await dialog.waitFor({ state: 'detached' });

    const other = await newSession(browser, server.baseUrl);
    await other.page.goto('/');
    await login(other.page, email, 'brand-new-pass');
    await other.page.waitForURL('**/home');
    await Promise.all([context.close(), other.context.close()]);
  });

  it('creates an app password that opens WebDAV, and revokes it', async () => {
    const email = uniqueEmail('dav');
    const { context, page } = await newSession(browser, server.baseUrl);
    await createAccount(page, email);
    await openSettings(page);
    await page.getByRole('button', { name: 'App passwords' }).click();
    await page.getByText('No app passwords yet.').waitFor();
    await page.getByLabel('New app password name').fill('Laptop (rclone)');
    await page.getByRole('button', { name: 'Create' }).click();
    const dialog = page.getByRole('dialog', { name: 'App password for “Laptop (rclone)”' });
    const password = await dialog.getByLabel('Password', { exact: true }).inputValue();
    expect(await dialog.getByLabel('WebDAV URL', { exact: true }).inputValue()).toBe(`${server.baseUrl}/dav/`);
    await screenshot(page, 'settings-app-password');
    await dialog.getByRole('button', { name: 'Done' }).click();

    const propfind = () =>
      fetch(`${server.baseUrl}/dav/`, {
        method: 'PROPFIND',
        headers: { depth: '0', authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` },
      }).then((r) => r.status);
    expect(await propfind()).toBe(207);
    await expect.poll(() => page.getByText(/Never used|Last used/).textContent()).toBeTruthy();

    await page.getByRole('button', { name: 'Revoke Laptop (rclone)' }).click();
    await page.getByRole('dialog', { name: 'Revoke app password?' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No app passwords yet.').waitFor();
    expect(await propfind()).toBe(401);
    await context.close();
  });
});
