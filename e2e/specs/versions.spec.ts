import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toast, uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { apiList, apiUpload, signUp } from '../support/files';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startNimbus(), connectBrowser()]);
  ({ context, page } = await newSession(browser, server.baseUrl));
  await signUp(page, uniqueEmail('versions'));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

async function bytesOf(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const FIRST = 'the first draft of the notes\n';
const SECOND = 'a second, longer and quite different text of the notes\n';

describe('file versions', () => {
  it('a new version from the item menu, then the first one restored from the details panel and downloaded', async () => {
    const file = await apiUpload(page, 'notes.txt', Buffer.from(FIRST), 'text/plain');
    await page.goto('/home');
    const option = page.getByRole('option', { name: 'notes.txt' }).last();
    await option.click({ button: 'right' });
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('menu', { name: 'Actions for notes.txt' }).getByRole('menuitem', { name: 'Upload new version' }).click(),
    ]);
    await chooser.setFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(SECOND) });
    await page.getByRole('region', { name: 'Uploads' }).getByRole('heading', { name: 'Uploaded 1 file(s)' }).waitFor();
    await expect.poll(async () => (await apiList(page)).find((f) => f._id === file._id)?.length).toBe(SECOND.length);
    // The panel sits over the details panel's foot, where the versions are.
    await page.getByRole('button', { name: 'Close uploads' }).click();

    await option.click();
    const panel = page.getByRole('complementary', { name: 'Details' });
    const versions = panel.getByRole('list', { name: 'Versions' });
    await versions.getByRole('listitem', { name: 'Current version' }).waitFor();
    const earlier = versions.getByRole('listitem', { name: /^Version of / });
    await expect.poll(() => earlier.count()).toBe(1);
    await earlier.getByText(`${FIRST.length} B`).waitFor();
    await versions.scrollIntoViewIfNeeded();
    await screenshot(page, 'file-versions');

    await earlier.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('dialog', { name: 'Restore this version?' }).getByRole('button', { name: 'Restore' }).click();
    await toast(page, 'Version restored');
    await expect.poll(async () => (await apiList(page)).find((f) => f._id === file._id)?.length).toBe(FIRST.length);

    // The content it replaced is kept in turn: the second text is now the one earlier version.
    await earlier.getByText(`${SECOND.length} B`).waitFor();
    await expect.poll(() => earlier.count()).toBe(1);
    const [current] = await Promise.all([
      page.waitForEvent('download'),
      versions.getByRole('listitem', { name: 'Current version' }).getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(current.suggestedFilename()).toBe('notes.txt');
    expect((await bytesOf(current)).toString()).toBe(FIRST);
    const [replaced] = await Promise.all([page.waitForEvent('download'), earlier.getByRole('button', { name: 'Download' }).click()]);
    expect(replaced.suggestedFilename()).toBe('notes.txt');
    expect((await bytesOf(replaced)).toString()).toBe(SECOND);
  });

  it('a big new version goes resumably and keeps the old content as a version', async () => {
    const small = Buffer.from('a small first content\n');
    const file = await apiUpload(page, 'video-draft.bin', small, 'application/octet-stream');
    // Over the resumable threshold (20 MiB): the web app sends it with tus, `replaces` naming the file.
    const big = Buffer.alloc(21 * 1024 * 1024, 7);
    await page.goto('/home');
    await page.getByRole('option', { name: 'video-draft.bin' }).last().click({ button: 'right' });
    const tusCreations: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/file-service/tus'))
        tusCreations.push(request.headers()['upload-metadata'] ?? '');
    });
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('menu', { name: 'Actions for video-draft.bin' }).getByRole('menuitem', { name: 'Upload new version' }).click(),
    ]);
    await chooser.setFiles({ name: 'video-draft.bin', mimeType: 'application/octet-stream', buffer: big });
    await expect.poll(async () => (await apiList(page)).find((f) => f._id === file._id)?.length, { timeout: 30_000 }).toBe(big.length);
    expect(tusCreations).toHaveLength(1);
    expect(tusCreations[0]).toContain(`replaces ${Buffer.from(file._id).toString('base64')}`);
    const listed = await page.evaluate(async (id) => {
      const res = await fetch(`/file-service/versions/${id}`);
      return (await res.json()) as { versions: { size: number }[] };
    }, file._id);
    expect(listed.versions.map((v) => v.size)).toEqual([small.length]);
  });
});
