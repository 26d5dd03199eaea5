import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComputePool, ComputeTimeoutError } from '../../src/search/compute/pool.js';
import { MAX_DOCX_PART_BYTES, readDocx } from '../../src/search/extract/docx.js';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** A DOCX of a few hundred KB whose document part inflates to `megabytes` MiB of spaces. */
async function docxBomb(megabytes: number): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
  const chunk = ' '.repeat(1024 * 1024);
  zip.file(
    'word/document.xml',
    `<w:document><w:body><w:p><w:r><w:t>boom${chunk.repeat(megabytes)}</w:t></w:r></w:p></w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

describe('hostile documents in the search indexer', () => {
  it('reads a DOCX whose document part inflates past the limit only up to the limit', async () => {
    const bomb = await docxBomb(40);
    expect(40 * 1024 * 1024).toBeGreaterThan(MAX_DOCX_PART_BYTES);
    expect(bomb.length).toBeLessThan(256 * 1024);
    expect(await readDocx(bomb)).toEqual({ text: 'boom', date: null });
  });

  it('still reads an ordinary DOCX: paragraphs, entities and the title', async () => {
    const zip = new JSZip();
    zip.file(
      'word/document.xml',
      '<w:document><w:body><w:p><w:r><w:t>Quarterly &amp; yearly</w:t></w:r><w:r><w:tab/><w:t xml:space="preserve">report</w:t></w:r></w:p><w:p><w:r><w:t>Second line</w:t></w:r></w:p></w:body></w:document>',
    );
    zip.file(
      'docProps/core.xml',
      '<cp:coreProperties><dc:title>Budget</dc:title><dcterms:created>2024-03-01T10:00:00Z</dcterms:created></cp:coreProperties>',
    );
    const doc = await readDocx(await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
    expect(doc.text).toContain('Budget');
    expect(doc.text).toContain('Quarterly & yearly report');
    expect(doc.text).toContain('Second line');
    expect(doc.date).toBe(Date.UTC(2024, 2, 1, 10));
  });

  it('abandons a compute task past its deadline, ends its thread and carries on with a new one', async () => {
    const pool = new ComputePool(1, { taskTimeoutMs: 1 });
    try {
      await expect(pool.run({ type: 'embed', texts: ['a slow first embedding'] })).rejects.toBeInstanceOf(ComputeTimeoutError);
    } finally {
      await pool.close();
    }
    const patient = new ComputePool(1);
    try {
      expect(
        (
          await patient.run({
            type: 'analyze',
            filename: 'a.txt',
            contentType: 'text/plain',
            bytes: new TextEncoder().encode('hello there'),
          })
        ).text,
      ).toContain('hello');
    } finally {
      await patient.close();
    }
  });

  describe('through the API', () => {
    let t: TestApp;
    let alice: TestBrowser;
    beforeAll(async () => {
      t = await createTestApp();
      alice = new TestBrowser(t.app);
      await alice.signUp();
    });
    afterAll(() => t.close());

    it('indexes a DOCX bomb by its name and first words, once', async () => {
      const file = await upload(alice, 'quarterly-bomb.docx', await docxBomb(40));
      // Index jobs wait a moment for bursts to settle; run them now.
      const due = () => t.app.database.db.updateTable('job').set({ runAt: 0 }).execute();
      await due();
      for (let i = 0; i < 5 && (await t.app.background.drainJobs()) > 0; i++) await due();
      const entry = await t.app.database.db.selectFrom('searchEntry').selectAll().where('itemId', '=', file._id).executeTakeFirst();
      expect(entry?.body).toMatch(/quarterly/i);
      expect(entry?.body).toMatch(/\bboom\b/);
      const failed = await t.app.database.db.selectFrom('job').select('name').where('failedAt', 'is not', null).execute();
      expect(failed).toEqual([]);
    });
  });
});
