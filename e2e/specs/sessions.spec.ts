import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, formMessage, login, openSettings, toast, uniqueEmail } from '../support/app';
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

describe('logout', () => {
  it('asks "Logout?", logs out to / and forgets the previous login', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    await createAccount(page, uniqueEmail('logout'));
    await openSettings(page);
    await screenshot(page, 'settings-account');
    await page.getByRole('button', { name: 'Logout', exact: true }).click();
    await page.getByRole('dialog', { name: 'Logout?' }).waitFor();
    await screenshot(page, 'settings-logout-confirm');
    await page.getByRole('button', { name: 'Yes, logout' }).click();
    await toast(page, 'Logged out');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('hasPreviouslyLoggedIn'))).toBeNull();

    await page.goto('/home');
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await expect.poll(() => formMessage(page).count()).toBe(0);
    await context.close();
  });

  it('logout all also ends the session of another browser', async () => {
    const email = uniqueEmail('everywhere');
    const first = await newSession(browser, server.baseUrl);
    await createAccount(first.page, email);
    const second = await newSession(browser, server.baseUrl);
    await second.page.goto('/settings');
    await login(second.page, email);
    await second.page.waitForURL('**/settings');

    await openSettings(first.page);
    await first.page.getByRole('button', { name: 'Logout all' }).click();
    await first.page.getByRole('dialog', { name: 'Logout all?' }).waitFor();
    await screenshot(first.page, 'settings-logout-all-confirm');
    await first.page.getByRole('button', { name: 'Yes, logout all' }).click();
    await toast(first.page, 'Logged out all');
    await first.page.waitForURL((url) => url.pathname === '/');

    await second.page.reload();
    await formMessage(second.page).getByText('Login Expired').waitFor();
    expect(new URL(second.page.url()).pathname).toBe('/');
    await expect.poll(() => second.page.evaluate(() => localStorage.getItem('hasPreviouslyLoggedIn'))).toBeNull();
    await screenshot(second.page, 'auth-login-expired');

    await login(second.page, email);
    await second.page.waitForURL('**/settings');
    await Promise.all([first.context.close(), second.context.close()]);
  });
});
