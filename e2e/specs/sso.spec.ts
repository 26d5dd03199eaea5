import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';
import { startLocalProvider, type LocalProvider } from '../support/oidc-provider';

const LABEL = 'Sign in with Example ID';

let provider: LocalProvider;
let server: NimbusServer;
let browser: Browser;

beforeAll(async () => {
  provider = await startLocalProvider();
  [server, browser] = await Promise.all([
    startNimbus({
      env: {
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_BUTTON_LABEL: LABEL,
      },
    }),
    connectBrowser(),
  ]);
  provider.serve(`${server.baseUrl}/auth/oidc/callback`);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
});

describe('single sign-on', () => {
  it('the button leads through the provider’s sign-in to /home, as a new account without a password', async () => {
    const email = uniqueEmail('sso');
    provider.users.set('ada', { email, email_verified: true });
    const { context, page } = await newSession(browser, server.baseUrl);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    await screenshot(page, 'sso-login-button');
    await page.getByRole('link', { name: LABEL }).click();

    // The provider's own pages: sign in, then allow Nimbus.
    await page.getByPlaceholder('Enter any login').fill('ada');
    await page.getByPlaceholder('and password').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL('**/home');
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();
    // The session survives a reload: the refresh cookie is bound to this browser's id.
    await page.reload();
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();

    await page.goto('/settings');
    await page.getByText(email).waitFor();
    await page.getByText(/^Signs in with Example ID\./).waitFor();
    expect(await page.getByText('Change password').count()).toBe(0);
    await screenshot(page, 'sso-account-section');
    await context.close();
  });

  it('an e-mail the provider did not verify returns to the login screen with the reason', async () => {
    provider.users.set('bob', { email: uniqueEmail('unverified'), email_verified: false });
    const { context, page } = await newSession(browser, server.baseUrl);
    await page.goto('/');
    await page.getByRole('link', { name: LABEL }).click();
    await page.getByPlaceholder('Enter any login').fill('bob');
    await page.getByPlaceholder('and password').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/?sso_error=unverified_email');
    await page.getByText('Your identity provider has not verified your e-mail address, so it cannot sign you in here.').waitFor();
    await context.close();
  });
});
