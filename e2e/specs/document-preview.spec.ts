import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/app';
import { connectBrowser, newSession, screenshot } from '../support/browser';
import { apiList, apiUpload, openFromHome, signUp } from '../support/files';
import { startNimbus, type NimbusServer } from '../support/nimbus-server';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

/** A PDF of two 200 × 300 pt pages: the first with a black square in its lower left, the second with a grey bar. */
function twoPagePdf(): Buffer {
  const pages = ['q 0 0 0 rg 20 20 80 80 re f Q', 'q 0.5 g 20 200 160 40 re f Q'];
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 300] /Contents 4 0 R >>',
    `<< /Length ${pages[0]!.length} >>\nstream\n${pages[0]}\nendstream`,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 300] /Contents 6 0 R >>',
    `<< /Length ${pages[1]!.length} >>\nstream\n${pages[1]}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const HOSTILE_MARKDOWN = [
  '# Meeting notes',
  '',
  'Agreed on **three** things.',
  '',
  '<script>window.pwned = "script"</script>',
  '',
  '<img src="/nowhere.png" onerror="window.pwned = \'onerror\'">',
  '',
  "[open me](javascript:window.pwned='link')",
  '',
  '![remote](http://127.0.0.1:9/pixel.png)',
].join('\n');

beforeAll(async () => {
  const [started, connected] = await Promise.all([startNimbus(), connectBrowser()]);
  [server, browser] = [started, connected];
  ({ context, page } = await newSession(browser, server.baseUrl));
  await signUp(page, uniqueEmail('documents'));
  const pdf = await apiUpload(page, 'plan.pdf', twoPagePdf(), 'application/pdf');
  await apiUpload(page, 'notes.md', Buffer.from(HOSTILE_MARKDOWN), 'text/markdown');
  // The first page becomes the PDF's thumbnail in the background.
  const deadline = Date.now() + 30_000;
  while (!(await apiList(page)).find((f) => f._id === pdf._id)?.metadata.hasThumbnail) {
    if (Date.now() > deadline) throw new Error('the PDF got no thumbnail in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const preview = (target: Page) => target.getByTestId('file-preview');

/** How many pixels of the PDF canvas are dark, and how many in all. */
const inkOf = (target: Page) =>
  target.getByTestId('pdf-canvas').evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let dark = 0;
    let grey = 0;
    for (let i = 0; i < data.length; i += 4) {
      const level = (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
      if (level < 40) dark++;
      else if (level > 100 && level < 160) grey++;
    }
    return { dark, grey, all: data.length / 4 };
  });

describe('document previews in Chromium', () => {
  it('shows a PDF page by page with pdf.js: page 1 draws its black square, Next draws page 2', async () => {
    await openFromHome(page, 'plan.pdf');
    await preview(page).waitFor();
    await page.locator('[data-testid="pdf-canvas"][data-page="1"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('pdf-page-count').textContent()).toBe('Page 1 of 2');
    const first = await inkOf(page);
    // The square is 80 × 80 of 200 × 300 pt: about a tenth of the page, and the rest white.
    expect(first.dark / first.all).toBeGreaterThan(0.07);
    expect(first.dark / first.all).toBeLessThan(0.15);
    // Only the square's anti-aliased edges are grey.
    expect(first.grey / first.all).toBeLessThan(0.01);
    await screenshot(page, 'pdf-preview');

    await page.getByRole('button', { name: 'Next page' }).click();
    await page.locator('[data-testid="pdf-canvas"][data-page="2"]').waitFor();
    await expect.poll(() => page.getByTestId('pdf-page-count').textContent()).toBe('Page 2 of 2');
    const second = await inkOf(page);
    expect(second.dark).toBe(0);
    expect(second.grey / second.all).toBeGreaterThan(0.05);
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await preview(page).waitFor({ state: 'detached' });
  });

  it('renders Markdown without running its script, its handlers or its links, and loads no image', async () => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const images: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'image' && !request.url().includes('/file-service/thumbnail/')) images.push(request.url());
    });
    await openFromHome(page, 'notes.md');
    const article = preview(page).getByTestId('preview-markdown');
    await article.getByRole('heading', { name: 'Meeting notes' }).waitFor();
    expect(await article.locator('strong').textContent()).toBe('three');
    expect(await article.locator('script, img, [onerror]').count()).toBe(0);
    // Its javascript: target is dropped: what is left is the text, with no href to follow.
    const link = article.locator('a', { hasText: 'open me' });
    expect(await link.getAttribute('href')).toBeNull();
    await link.click();
    expect(await article.getByRole('link', { name: 'remote' }).getAttribute('rel')).toBe('noopener noreferrer');
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as { pwned?: string }).pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(images).toEqual([]);
    await screenshot(page, 'markdown-preview');
  });
});
