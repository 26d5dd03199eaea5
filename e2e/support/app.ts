import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';

export const PASSWORD = 'correct-horse-1';

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/** The form's submit button (its label changes with the mode). */
export const submitButton = (page: Page) => page.locator('form button[type="submit"]');

/** The message under the authentication form. */
export const formMessage = (page: Page) => page.locator('form [role="alert"]');

export async function createAccount(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/');
  await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Verify password').fill(password);
  await submitButton(page).click();
  await page.waitForURL('**/home');
  await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();
}

/** Logs in from the authentication screen the page is on. */
export async function login(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByRole('heading', { name: 'Login to your account' }).waitFor();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await submitButton(page).click();
}

/** Waits for a toast with exactly this text. */
export async function toast(page: Page, text: string): Promise<void> {
  await page.locator('.Toastify').getByText(text, { exact: true }).first().waitFor();
}

/** Opens settings through the header gear and waits for the account to load. */
export async function openSettings(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await page.waitForURL('**/settings');
  await page.getByRole('button', { name: 'Logout all' }).waitFor();
}
