import type { FileDto } from '@nimbus/common';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaUnprocessableError } from '../../src/media/errors.js';
import { renderFirstPage } from '../../src/media/pdf-thumbnailer.js';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { onePagePdf, squarePdf } from './documents.js';
import { dimensions, isStored, mediaRow } from './support.js';

/** Mean brightness (0–255) of a region of an image. */
async function brightness(image: Buffer, region?: { left: number; top: number; width: number; height: number }): Promise<number> {
  const pixels = await (region ? sharp(image).extract(region) : sharp(image)).removeAlpha().greyscale().raw().toBuffer();
  return pixels.reduce((sum, value) => sum + value, 0) / pixels.length;
}

describe('PDF thumbnails', () => {
  let t: TestApp;
  let alice: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(() => t.close());

  async function info(id: string): Promise<FileDto> {
    return (await alice.get(`/file-service/info/${id}`)).json() as FileDto;
  }

  it('draws the first page as the thumbnail: white paper with the black square where the PDF puts it', async () => {
    const pdf = squarePdf();
    const file = await upload(alice, 'report.pdf', pdf);
    expect(file.metadata.contentType).toBe('application/pdf');
    await t.app.background.drainJobs();

    const ready = await info(file._id);
    expect(ready.metadata.hasThumbnail).toBe(true);
    expect(ready.metadata.isVideo).toBe(false);
    const thumbnail = await alice.get(`/file-service/thumbnail/${ready.metadata.thumbnailID}`);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    const image = thumbnail.rawPayload;
    // 200 × 300 pt drawn at 600 px high, then scaled to 300 px wide.
    expect(await dimensions(image)).toEqual({ width: 300, height: 450, format: 'webp' });
    expect(await brightness(image)).toBeGreaterThan(200);
    // The square spans 20–100 pt from the lower left corner: 30–150 px across, 300–420 px down.
    expect(await brightness(image, { left: 40, top: 310, width: 100, height: 100 })).toBeLessThan(30);
    expect(await brightness(image, { left: 180, top: 200, width: 100, height: 100 })).toBeGreaterThan(250);
    // The line of text near the top leaves some ink there.
    expect(await brightness(image, { left: 20, top: 40, width: 200, height: 40 })).toBeLessThan(250);

    const row = await mediaRow(t.app, file._id);
    expect(row).toMatchObject({ status: 'ready', previewId: null });
    expect(await isStored(t.dataDir, row!.thumbnailId!)).toBe(true);
    // The original is the PDF as uploaded.
    const download = await alice.get(`/file-service/download/${file._id}`);
    expect(download.rawPayload.equals(pdf)).toBe(true);
  });

  it('gives a PDF stored before PDFs had thumbnails its thumbnail through the backfill', async () => {
    const file = await upload(alice, 'older.pdf', squarePdf());
    // As if stored by a server that enqueued no thumbnail job for a PDF.
    await t.app.database.db.deleteFrom('job').where('name', '=', 'file.thumbnail').execute();
    await t.app.background.drainJobs();
    expect(await mediaRow(t.app, file._id)).toBeUndefined();
    await t.app.background.schedule();
    for (let i = 0; i < 5 && (await t.app.background.drainJobs()) > 0; i++);
    expect(await mediaRow(t.app, file._id)).toMatchObject({ status: 'ready' });
    expect((await info(file._id)).metadata.hasThumbnail).toBe(true);
  });

  it('fails a hostile or broken PDF alone, once, with nothing stored, and goes on with the next', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const hostile = {
      'huge-page.pdf': onePagePdf('0 g 0 0 10 10 re f', 1_000_000, 1_000_000),
      'deep-nesting.pdf': onePagePdf('0 g 0 0 10 10 re f', 200, 300, `/Annots ${deep} `),
      'truncated.pdf': squarePdf().subarray(0, 200),
      'not-a-pdf.pdf': Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 0x41)]),
    };
    const files = await Promise.all(Object.entries(hostile).map(([name, bytes]) => upload(alice, name, bytes)));
    const good = await upload(alice, 'after.pdf', squarePdf());
    for (let i = 0; i < 5 && (await t.app.background.drainJobs()) > 0; i++);

    const errors: Record<string, string> = {};
    for (const file of files) {
      expect(file.metadata.contentType).toBe('application/pdf');
      const row = await mediaRow(t.app, file._id);
      expect(row).toMatchObject({ status: 'failed', thumbnailId: null, previewId: null });
      errors[file.filename] = row!.error!;
      expect((await info(file._id)).metadata.hasThumbnail).toBe(false);
    }
    expect(errors['huge-page.pdf']).toMatch(/too large/);
    expect(errors['deep-nesting.pdf']).toMatch(/Cannot read the PDF/);
    expect(errors['truncated.pdf']).toMatch(/Cannot read the PDF/);
    expect(await mediaRow(t.app, good._id)).toMatchObject({ status: 'ready' });
    expect(await t.app.database.db.selectFrom('job').selectAll().where('name', '=', 'file.thumbnail').execute()).toEqual([]);
    expect((await alice.get('/file-service/list')).statusCode).toBe(200);
  });

  it('ends a PDF whose drawing runs past the deadline, and the next one draws', async () => {
    // Half a million nested graphics states: pdf.js works on it for minutes.
    const endless = onePagePdf('q '.repeat(500_000) + '0 g 0 0 10 10 re f', 200, 300);
    const started = Date.now();
    const failure = await renderFirstPage(endless, { timeoutMs: 2000 }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(MediaUnprocessableError);
    expect((failure as Error).message).toMatch(/longer than 2 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await sharp(await renderFirstPage(squarePdf())).metadata()).width).toBe(400);
  });
});
