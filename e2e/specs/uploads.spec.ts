import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { apiFolders, apiList, signUp } from '../support/files';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startNimbus(), connectBrowser()]);
  ({ context, page } = await newSession(browser, server.baseUrl));
  await signUp(page, uniqueEmail('uploads'));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

interface DropFile {
  name: string;
  text?: string;
  /** Zero bytes of this length instead of text. */
  size?: number;
}

/** Drags files over the content area, as the operating system would, and drops them unless told not to. */
async function dragFiles(target: Page, files: DropFile[], drop = true): Promise<void> {
  await target.evaluate(
    ({ files: list, drop: shouldDrop }) => {
      const data = new DataTransfer();
      for (const f of list)
        data.items.add(new File([f.size !== undefined ? new Uint8Array(f.size) : (f.text ?? '')], f.name, { type: 'text/plain' }));
      const zone = document.querySelector('[data-testid="upload-drop-zone"]')!;
      const fire = (type: string) => zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
      fire('dragenter');
      fire('dragover');
      if (shouldDrop) fire('drop');
    },
    { files, drop },
  );
}

/** Caps the page's upload speed, so a big upload is still running when the test acts on it. */
async function throttleUploads(target: Page, bytesPerSecond: number): Promise<CDPSession> {
  const cdp = await context.newCDPSession(target);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return cdp;
}

async function unthrottle(cdp: CDPSession): Promise<void> {
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await cdp.detach();
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const panel = (target: Page) => target.getByRole('region', { name: 'Uploads' });
const rows = (target: Page) => panel(target).getByTestId('upload-row');

describe('uploads', () => {
  it('dropping three files dims the area, then uploads them with a panel that ends "Uploaded 3 file(s)"', async () => {
    await dragFiles(page, [{ name: 'hover.txt', text: 'hover' }], false);
    await page.getByTestId('drop-overlay').waitFor();
    await page.evaluate(() =>
      document.querySelector('[data-testid="upload-drop-zone"]')!.dispatchEvent(new DragEvent('dragleave', { bubbles: true })),
    );
    await page.getByTestId('drop-overlay').waitFor({ state: 'detached' });

    await dragFiles(page, [
      { name: 'alpha.txt', text: 'first file' },
      { name: 'beta.txt', text: 'second file' },
      { name: 'gamma.txt', text: 'third file' },
    ]);
    await panel(page).getByRole('heading', { name: 'Uploaded 3 file(s)' }).waitFor();
    await expect.poll(() => rows(page).count()).toBe(3);
    for (const row of await rows(page).all()) await expect.poll(() => row.getAttribute('data-state')).toBe('completed');
    await screenshot(page, 'upload-panel');

    const names = (await apiList(page)).map((f) => f.filename).sort();
    expect(names).toEqual(['alpha.txt', 'beta.txt', 'gamma.txt']);
    // The file list on screen was refetched.
    for (const name of ['alpha.txt', 'beta.txt', 'gamma.txt']) await page.getByRole('option', { name }).last().waitFor();

    await panel(page).getByRole('button', { name: 'Minimize uploads' }).click();
    await expect.poll(() => rows(page).count()).toBe(0);
    await panel(page).getByRole('button', { name: 'Expand uploads' }).click();
    await panel(page).getByRole('button', { name: 'Close uploads' }).click();
    await panel(page).waitFor({ state: 'detached' });
  });

  it('uploads a picked folder with nested paths into matching folders', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'nimbus-folder-'));
    try {
      const trip = path.join(root, 'Trip');
      mkdirSync(path.join(trip, 'day1', 'photos'), { recursive: true });
      writeFileSync(path.join(trip, 'notes.txt'), 'plan');
      writeFileSync(path.join(trip, 'day1', 'diary.txt'), 'sunny');
      writeFileSync(path.join(trip, 'day1', 'photos', 'list.txt'), 'beach');

      await page.getByRole('button', { name: 'ADD NEW' }).first().click();
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('menuitem', { name: 'Upload Folder' }).click(),
      ]);
      await chooser.setFiles(trip);
      await panel(page).getByRole('heading', { name: 'Uploaded 1 file(s)' }).waitFor();
      await expect.poll(() => rows(page).first().textContent()).toContain('Trip');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }

    const top = (await apiFolders(page)).find((f) => f.name === 'Trip');
    expect(top).toBeDefined();
    const day1 = (await apiFolders(page, top!._id)).find((f) => f.name === 'day1');
    expect(day1).toBeDefined();
    const photos = (await apiFolders(page, day1!._id)).find((f) => f.name === 'photos');
    expect(photos).toBeDefined();
    expect((await apiList(page, { parent: top!._id })).map((f) => f.filename)).toEqual(['notes.txt']);
    expect((await apiList(page, { parent: day1!._id })).map((f) => f.filename)).toEqual(['diary.txt']);
    expect((await apiList(page, { parent: photos!._id })).map((f) => f.filename)).toEqual(['list.txt']);
    await panel(page).getByRole('button', { name: 'Close uploads' }).click();
  });

  it('cancelling a large upload midway marks it canceled and leaves nothing on the server', async () => {
    // About 2 MB/s up, so the 48 MB upload is still running when it is cancelled.
    const cdp = await throttleUploads(page, 2 * 1024 * 1024);
    try {
      await dragFiles(page, [{ name: 'huge.bin', size: 48 * 1024 * 1024 }]);
      const row = rows(page).filter({ hasText: 'huge.bin' });
      await panel(page).getByRole('heading', { name: 'Uploading 1 file(s)' }).waitFor();
      await page.waitForFunction(
        () => Number(document.querySelector('[role="progressbar"][aria-valuenow]')?.getAttribute('aria-valuenow') ?? 0) >= 2,
      );
      await row.getByRole('button', { name: 'Cancel upload of huge.bin' }).click();
      await expect.poll(() => row.getAttribute('data-state')).toBe('canceled');
      await panel(page).getByRole('heading', { name: 'Uploaded 0 file(s)' }).waitFor();
    } finally {
      await unthrottle(cdp);
    }
    await page.waitForTimeout(500);
    expect((await apiList(page)).map((f) => f.filename)).not.toContain('huge.bin');
  });

  it('a big upload interrupted by a reload is offered again and continues from what the server holds', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nimbus-resume-'));
    const film = path.join(dir, 'film.bin');
    const bytes = randomBytes(40 * 1024 * 1024);
    writeFileSync(film, bytes);
    const patches: { offset: number }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/file-service/tus/'))
        patches.push({ offset: Number(request.headers()['upload-offset']) });
    });
    try {
      const cdp = await throttleUploads(page, 4 * 1024 * 1024);
      try {
        await page.getByRole('button', { name: 'ADD NEW' }).first().click();
        const [chooser] = await Promise.all([
          page.waitForEvent('filechooser'),
          page.getByRole('menuitem', { name: 'Upload Files' }).click(),
        ]);
        await chooser.setFiles(film);
        const row = rows(page).filter({ hasText: 'film.bin' });
        // Pause and resume on the row, then let more than the first 16 MiB piece arrive.
        await row.getByRole('button', { name: 'Pause upload of film.bin' }).click();
        await expect.poll(() => row.getAttribute('data-state')).toBe('paused');
        await row.getByRole('button', { name: 'Resume upload of film.bin' }).click();
        await page.waitForFunction(
          () => Number(document.querySelector('[role="progressbar"][aria-valuenow]')?.getAttribute('aria-valuenow') ?? 0) >= 55,
          undefined,
          { timeout: 30_000 },
        );
        await page.reload();
      } finally {
        await unthrottle(cdp);
      }

      const offers = page.getByRole('region', { name: 'Unfinished uploads' });
      await offers.getByText('film.bin').waitFor();
      await screenshot(page, 'upload-resume-offer');
      patches.length = 0;
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        offers.getByRole('button', { name: 'Pick film.bin again to resume it' }).click(),
      ]);
      await chooser.setFiles(film);
      await offers.waitFor({ state: 'detached' });
      await panel(page).getByRole('heading', { name: 'Uploaded 1 file(s)' }).waitFor({ timeout: 60_000 });

      // It went on from the server's offset rather than from the first byte.
      expect(patches[0]!.offset).toBeGreaterThanOrEqual(16 * 1024 * 1024);
      const stored = (await apiList(page)).find((f) => f.filename === 'film.bin');
      expect(stored?.length).toBe(bytes.length);
      const download = await page.request.get(`/file-service/download/${stored!._id}`, {
        headers: { uuid: await page.evaluate(() => localStorage.getItem('browser-id') ?? '') },
      });
      expect(sha256(await download.body())).toBe(sha256(bytes));
      await panel(page).getByRole('button', { name: 'Close uploads' }).click();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // 40 MiB through a throttled connection, a reload and the rest: about 40 s on a quiet machine.
  }, 150_000);
});
