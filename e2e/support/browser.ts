import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { screenshotDir } from './paths';

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Connects to the Chromium started by the global setup. */
export function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject('browserWsEndpoint'));
}

/** A fresh browser profile (its own cookies and localStorage) on the app. */
export async function newSession(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

/** Saves the page at 1280×800 and at 390×844 under artifacts/screenshots, then restores the viewport. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  const original = page.viewportSize() ?? DESKTOP;
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${size.width}x${size.height}.png`) });
  }
  await page.setViewportSize(original);
}
