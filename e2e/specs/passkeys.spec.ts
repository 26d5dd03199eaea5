import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, login, openSettings, PASSWORD, toast, uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;

beforeAll(async () => {
  // WebAuthn takes no IP address as the site's identity: the app is served as localhost.
  [server, browser] = await Promise.all([startNimbus({ hostname: 'localhost' }), connectBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('passkeys', () => {
  it('registers a passkey in Settings, signs out, and signs in with it alone', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    // Chromium's own WebAuthn stack, with a virtual platform authenticator that holds resident keys and verifies the user.
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    const email = uniqueEmail('passkey');
    await createAccount(page, email);
    await openSettings(page);
    await page.getByRole('button', { name: 'Passkeys' }).click();
    await page.getByText('No passkeys yet.').waitFor();
    await page.getByLabel('New passkey name').fill('This laptop');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Add passkey' }).click();
    await page.getByText('This laptop', { exact: true }).waitFor();
    await page.getByText(/Never used/).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    await screenshot(page, 'settings-passkeys');

    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Logout', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, logout' }).click();
    await toast(page, 'Logged out');
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();

    // No e-mail, no password: the browser offers the site's passkey.
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL('**/home');
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();
    const user = await page.evaluate(async () =>
      (await fetch('/user-service/user', { headers: { uuid: localStorage.getItem('browser-id') ?? '' } })).json(),
    );
    expect(user).toMatchObject({ email });

    await openSettings(page);
    await page.getByRole('button', { name: 'Passkeys' }).click();
    await page.getByText(/Last used/).waitFor();
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after.credentials[0]!.signCount).toBeGreaterThan(0);
    await context.close();
  });

  it('a passkey removed in Settings signs in no more', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await createAccount(page, uniqueEmail('passkey-removed'));
    await openSettings(page);
    await page.getByRole('button', { name: 'Passkeys' }).click();
    await page.getByLabel('New passkey name').fill('Old phone');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Add passkey' }).click();
    await page.getByRole('button', { name: 'Remove Old phone' }).click();
    await page.getByRole('dialog', { name: 'Remove passkey?' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No passkeys yet.').waitFor();

    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Logout', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, logout' }).click();
    await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
    // The authenticator still holds the key; the server no longer knows it.
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByText('This passkey was not accepted', { exact: false }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('with two-factor on, a passkey finishes a password sign-in in place of the code', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    await addVirtualAuthenticator(page);
    const email = uniqueEmail('passkey-second-step');
    await createAccount(page, email);
    await openSettings(page);
    await page.getByRole('button', { name: 'Passkeys' }).click();
    await page.getByLabel('New passkey name').fill('Laptop');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Add passkey' }).click();
    await page.getByText(/Never used/).waitFor();

    await page.getByRole('button', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Turn on' }).click();
    const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
    const code = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
    await page.getByLabel('Enter the 6-digit code from your authenticator app').fill(code);
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('dialog', { name: 'Your recovery codes' }).getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Logout', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, logout' }).click();
    await login(page, email);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL('**/home');
    await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();
    await context.close();
  });
});

/** Chromium's virtual platform authenticator on this page, holding resident keys and verifying the user. */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}
