import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, formMessage, login, openSettings, PASSWORD, submitButton, toast, uniqueEmail } from '../support/app';
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

describe('e-mail verification', () => {
  it('verifies the address with the link from the e-mail', async () => {
    const email = uniqueEmail('verify');
    const { context, page } = await newSession(browser, server.baseUrl);
    await createAccount(page, email);
    await openSettings(page);
    await page.getByText('Email not verified').waitFor();

    await page.getByRole('button', { name: 'Resend' }).click();
    await page.getByRole('dialog', { name: 'Please wait 1 minute before resending' }).waitFor();
    await screenshot(page, 'settings-resend-cooldown');
    await page.getByRole('button', { name: 'Okay' }).click();

    const link = await server.mail.linkTo(email, `${server.baseUrl}/verify-email/`);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Email Verified' }).waitFor();
    await toast(page, 'Email Verified');
    await screenshot(page, 'verify-email');
    await page.waitForURL('**/home');

    await openSettings(page);
    await expect.poll(() => page.getByText('Email not verified').count()).toBe(0);
    await context.close();
  });

  it('an unknown token shows "Error verifying email"', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    await page.goto('/verify-email/not-a-real-token');
    await page.getByRole('heading', { name: 'Error verifying email' }).waitFor();
    await toast(page, 'Error verifying email');
    await screenshot(page, 'verify-email-error');
    await context.close();
  });
});

describe('password reset', () => {
  it('sets a new password with the link from the e-mail', async () => {
    const email = uniqueEmail('reset');
    const setup = await newSession(browser, server.baseUrl);
    await createAccount(setup.page, email);
    await setup.context.close();

    const { context, page } = await newSession(browser, server.baseUrl);
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgot?' }).click();
    await page.getByLabel('Email address').fill(email);
    await submitButton(page).click();
    await toast(page, 'Password Reset Sent');
    const link = await server.mail.linkTo(email, `${server.baseUrl}/reset-password/`);

    await page.getByRole('button', { name: 'Forgot?' }).click();
    await page.getByLabel('Email address').fill(email);
    await submitButton(page).click();
    await page.getByRole('dialog', { name: 'Please wait 1 minute before resending' }).waitFor();
    await page.getByRole('button', { name: 'Okay' }).click();

    await page.goto(link);
    const newPassword = `${PASSWORD}-new`;
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Verify Password').fill(`${newPassword}x`);
    await formMessage(page).getByText('Passwords do not match').waitFor();
    await page.getByLabel('Verify Password').fill(newPassword);
    await screenshot(page, 'reset-password');
    await page.getByRole('button', { name: 'Reset' }).click();
    await toast(page, 'Password Reset');
    await page.waitForURL((url) => url.pathname === '/');

    await login(page, email, PASSWORD);
    await formMessage(page).getByText('Incorrect email or password').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await submitButton(page).click();
    await page.waitForURL('**/home');

    await page.goto(link);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Verify Password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset' }).click();
    await formMessage(page).getByText('Invalid token error').waitFor();
    expect(await page.getByRole('button', { name: 'Reset' }).isEnabled()).toBe(true);
    await context.close();
  });

  it('an unknown e-mail address shows "Email does not exist"', async () => {
    const { context, page } = await newSession(browser, server.baseUrl);
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgot?' }).click();
    await page.getByLabel('Email address').fill(uniqueEmail('ghost'));
    await submitButton(page).click();
    await formMessage(page).getByText('Email does not exist').waitFor();
    await toast(page, 'Error Sending Password Reset');
    await context.close();
  });
});
