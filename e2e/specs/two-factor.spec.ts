import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, login, openSettings, toast, uniqueEmail } from '../support/app';
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

/** What an authenticator app shows for the key read off the page. */
function codeOf(secret: string, timestamp = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp });
}

/**
 * A code of a later step than any used so far (the server takes each step once): the current
 * one, or else the next, which the server accepts as a clock 30 s ahead.
 */
function freshCode(secret: string, used: Set<string>): string {
  const now = Date.now();
  const code = [codeOf(secret, now), codeOf(secret, now + 30_000)].find((c) => !used.has(c))!;
  used.add(code);
  return code;
}

async function logout(page: Page): Promise<void> {
  if (page.url().endsWith('/settings')) await page.getByRole('button', { name: 'Account' }).click();
  else await openSettings(page);
  await page.getByRole('button', { name: 'Logout', exact: true }).click();
  await page.getByRole('button', { name: 'Yes, logout' }).click();
  await toast(page, 'Logged out');
  await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
}

describe('two-factor sign-in (TOTP)', () => {
  it('is turned on in Settings with the key shown, then asks for a code, or a recovery code, after the password', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    const email = uniqueEmail('totp');
    const used = new Set<string>();
    await createAccount(page, email);
    await openSettings(page);
    await page.getByRole('button', { name: 'Security' }).click();
    await page.getByRole('heading', { name: 'Security' }).waitFor();
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Enter the 6-digit code from your authenticator app').fill(freshCode(secret, used));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your recovery codes' });
    await dialog.waitFor();
    const recoveryCodes = (await dialog.getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(recoveryCodes).toHaveLength(10);
    await screenshot(page, 'settings-two-factor-recovery-codes');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByText(/On · 10 recovery codes left/).waitFor();

    // Password, then a code from the app.
    await logout(page);
    await login(page, email);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByLabel('Enter the 6-digit code from your authenticator app').fill('000000' === codeOf(secret) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(/That code is not right/).waitFor();
    await page.getByLabel('Enter the 6-digit code from your authenticator app').fill(freshCode(secret, used));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/home');
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();

    // Password, then a recovery code instead.
    await logout(page);
    await login(page, email);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Enter one of your recovery codes').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/home');
    await openSettings(page);
    await page.getByRole('button', { name: 'Security' }).click();
    await page.getByText(/On · 9 recovery codes left/).waitFor();

    // The same recovery code a second time is refused.
    await logout(page);
    await login(page, email);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Enter one of your recovery codes').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(/That recovery code is not right, or was already used/).waitFor();
    await context.close();
  });
});
