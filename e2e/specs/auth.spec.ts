import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, formMessage, login, PASSWORD, submitButton, toast, uniqueEmail } from '../support/app';
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

describe('authentication screen', () => {
  it('shows the three modes', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    expect(await submitButton(page).isDisabled()).toBe(true);
    await screenshot(page, 'auth-login');

    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await page.getByLabel('Email address').fill('someone@example.com');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Verify password').fill('short');
    await submitButton(page).click();
    await expect.poll(() => formMessage(page).textContent()).toBe('Password must be at least 6 characters');
    expect(await submitButton(page).isDisabled()).toBe(true);
    await screenshot(page, 'auth-create-validation');

    await page.getByRole('button', { name: 'Back to Login' }).click();
    await page.getByRole('button', { name: 'Forgot?' }).click();
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    await screenshot(page, 'auth-reset');
    await context.close();
  });

  it('creating an account lands on /home; a reload restores the session', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    await createAccount(page, uniqueEmail('create'));
    await toast(page, 'Email Verification Sent');
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('hasPreviouslyLoggedIn'))).toBe('true');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('browser-id'))).toMatch(/^[0-9a-f-]{36}$/);
    await screenshot(page, 'home');

    // Hold the restore call back long enough to see the full-page spinner.
    await page.route('**/user-service/user', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.reload();
    await page.getByTestId('full-page-spinner').waitFor();
    await screenshot(page, 'session-restore');
    await page.waitForURL('**/home');
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();
    await page.unroute('**/user-service/user');

    await page.getByRole('searchbox', { name: 'Search files and folders' }).fill('invoice');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/search/invoice');
    await page.getByRole('heading', { name: 'Search: invoice' }).waitFor();
    await screenshot(page, 'search');

    await page.goto('/media');
    await page.getByRole('heading', { name: 'Photos and Videos' }).waitFor();
    await screenshot(page, 'media');
    await page.getByRole('link', { name: 'Trash' }).first().click();
    await page.getByRole('heading', { name: 'Trash' }).first().waitFor();
    await screenshot(page, 'trash');
    await page.getByRole('button', { name: 'ADD NEW' }).click();
    await page.getByRole('menuitem', { name: 'Upload Folder' }).waitFor();
    await screenshot(page, 'add-new-menu');
    await context.close();
  });

  it('a protected URL opened signed out returns there after login', async () => {
    const email = uniqueEmail('return');
    const setup = await newSession(browser, server.baseUrl);
    await createAccount(setup.page, email);
    await setup.context.close();

    const { context, page } = await newSession(browser, server.baseUrl);
    await page.goto('/folder/abc123?view=1');
    await page.waitForURL((url) => url.pathname === '/');
    await login(page, email);
    await page.waitForURL('**/folder/abc123?view=1');
    await page.getByRole('heading', { name: 'Folder' }).waitFor();
    await context.close();
  });

  it('a wrong password shows "Incorrect email or password"', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    await page.goto('/');
    await login(page, uniqueEmail('nobody'), `${PASSWORD}x`);
    await formMessage(page).getByText('Incorrect email or password').waitFor();
    await screenshot(page, 'auth-login-error');
    await context.close();
  });

  it('shows the router error screen, the not-found page and an unknown public link', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await screenshot(page, 'not-found');

    await page.goto('/public-download/file1/token1');
    await page.getByTestId('public-file-error').waitFor();
    await screenshot(page, 'public-download-error');

    await page.route('**/assets/reset-password*.js', (route) => route.abort());
    await page.goto('/reset-password/whatever');
    await page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    await screenshot(page, 'router-error');
    await context.close();
  });

  it('the side menu becomes a drawer on a phone', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    await createAccount(page, uniqueEmail('phone'));
    await page.setViewportSize({ width: 360, height: 740 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings');
    await page.getByRole('link', { name: 'HOME', exact: true }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Open menu' }).count()).toBe(0);
    await page.goto('/home');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await screenshot(page, 'drawer');
    await context.close();
  });
});

describe('serving the app', () => {
  it('the sign-in page loads only its own code; assets are immutable and pages are not cached', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    expect(scripts.length).toBeGreaterThan(1);
    expect(scripts.filter((script) => /settings|main-layout|Header|home|media|trash/.test(script))).toEqual([]);

    const asset = await fetch(`${server.baseUrl}${scripts[0]}`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const deepLink = await fetch(`${server.baseUrl}/search-trash/old%20things`);
    expect(deepLink.status).toBe(200);
    expect(deepLink.headers.get('cache-control')).toBe('no-cache');
    expect(await deepLink.text()).toContain('<div id="root"></div>');
    const unknownApi = await fetch(`${server.baseUrl}/file-service/no-such-call`);
    expect(unknownApi.status).toBe(404);
    expect(await unknownApi.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    await context.close();
  });
});
