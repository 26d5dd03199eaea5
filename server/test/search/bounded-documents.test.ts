import fc from 'fast-check';
import JSZip from 'jszip';
import { readFileSync } from 'node:fs';
import { PDFDict, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { ComputePool } from '../../src/search/compute/pool.js';
import { capWords, MAX_TEXT_CHARS, MAX_TEXT_WORDS, TextCollector } from '../../src/search/extract/analysis.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const MiB = 1024 * 1024;

/** A real zip, a few tens of KB, whose `word/document.xml` inflates to what `xml` builds. */
async function docxOf(xml: string): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
  zip.file('word/document.xml', xml);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** A real PDF of a few tens of KB: one page whose content stream shows one string that inflates to `megabytes` MiB. */
async function pdfWithOneHugeString(megabytes: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage();
  page.drawText('cover', { font: await pdf.embedFont(StandardFonts.Helvetica), size: 12 });
  const font = page.node.Resources()?.lookup(PDFName.of('Font'), PDFDict).keys()[0]?.toString();
  const content = pdf.context.flateStream(`BT ${font} 12 Tf 10 10 Td (${'a '.repeat(megabytes * 512 * 1024)}) Tj ET`);
  page.node.set(PDFName.of('Contents'), pdf.context.register(content));
  return pdf.save({ useObjectStreams: false });
}

const document = (body: string) => `<w:document><w:body>${body}</w:body></w:document>`;

describe('document text is read only as far as the index needs it', () => {
  // A thread far below the production limit: a reader that holds a whole inflated part, or splits
  // a whole text into words, runs out of heap here and fails the task.
  const pool = new ComputePool(1, { resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 } });
  afterAll(() => pool.close());

  const analyze = (filename: string, bytes: Uint8Array, contentType = DOCX) => {
    const copy = new Uint8Array(bytes);
    return pool.run({ type: 'analyze', filename, contentType, bytes: copy }, [copy.buffer]);
  };

  it('indexes the first words of a 30 KB DOCX whose text inflates to 31 MiB of "a a a …", in a 96 MiB heap', async () => {
    const bomb = await docxOf(document(`<w:p><w:r><w:t>${'a '.repeat(31 * 512 * 1024)}</w:t></w:r></w:p>`));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const { kind, text } = await analyze('bomb.docx', bomb);
    expect(kind).toBe('document');
    expect(text).toBe(Array(MAX_TEXT_WORDS).fill('a').join(' '));
  });

  it('stops after enough words when the text comes as millions of small runs', async () => {
    const bomb = await docxOf(document(`<w:p>${'<w:r><w:t>a b c d</w:t></w:r>'.repeat(800_000)}</w:p>`));
    expect(bomb.length).toBeLessThan(128 * 1024);
    const { text } = await analyze('runs.docx', bomb);
    expect(text.split(' ')).toHaveLength(MAX_TEXT_WORDS);
    expect(text.startsWith('a b c da b c d')).toBe(true);
  });

  it('gives up on a part nested two million tags deep instead of keeping every open tag', async () => {
    const bomb = await docxOf(`<w:document><w:body><w:p><w:r><w:t>shallow words</w:t></w:r></w:p>${'<w:tbl>'.repeat(2_000_000)}`);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect((await analyze('deep.docx', bomb)).text).toBe('shallow words');
  });

  it('keeps empty paragraphs and spaces from filling the memory', async () => {
    const bomb = await docxOf(document(`<w:p><w:r><w:t>first</w:t></w:r></w:p>${'<w:p/><w:r><w:tab/></w:r>'.repeat(1_500_000)}`));
    expect((await analyze('empty.docx', bomb)).text).toBe('first');
  });

  it('reads a PDF apart, so one whose single string inflates to 30 MiB ends only its reader', { timeout: 120_000 }, async () => {
    const bomb = await pdfWithOneHugeString(30);
    expect(bomb.length).toBeLessThan(64 * 1024);
    // pdf.js builds over a GiB of objects for this string: indexed by its name alone.
    expect(await analyze('bomb.pdf', bomb, 'application/pdf')).toEqual({ kind: 'document', text: '', contentDate: null, place: null });
    const real = readFileSync(new URL('../../eval/fixtures/lorem_ipsum.pdf', import.meta.url));
    expect((await analyze('lorem_ipsum.pdf', real, 'application/pdf')).text).toMatch(/^Draft Lorem ipsum dolor sit amet/);
  });

  it('still reads a real DOCX whole: title, paragraphs and words', async () => {
    const bytes = readFileSync(new URL('../../eval/fixtures/wedding_invitation_sam_alex.docx', import.meta.url));
    const { kind, text, contentDate } = await analyze('wedding_invitation_sam_alex.docx', bytes);
    expect(kind).toBe('document');
    expect(text).toMatch(/^Wedding invitation Together with their families, Sam Rivera/);
    expect(text).toMatch(/\bAlex\b/);
    expect(contentDate).not.toBeNull();
  });
});

describe('word caps', () => {
  const text = fc.stringMatching(/^[ \t\na-c\u00e9]{0,80}$/);

  it('capWords keeps the first words, single-spaced, as splitting the whole text would', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 12 }), (value, limit) => {
        expect(capWords(value, limit)).toBe(value.split(/\s+/).filter(Boolean).slice(0, limit).join(' '));
      }),
    );
  });

  it('a collector fed any pieces keeps the same words as the whole text, and is full past the limit', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 12 }), fc.integer({ min: 1, max: 12 }), (pieces, limit) => {
        const collector = new TextCollector(limit);
        for (const piece of pieces) collector.add(piece);
        const whole = pieces.join('');
        const words = whole.split(/\s+/).filter(Boolean).length;
        expect(capWords(collector.text, limit)).toBe(capWords(whole, limit));
        expect(collector.isFull).toBe(words > limit);
      }),
    );
  });

  it('a collector holds at most its character cap', () => {
    const collector = new TextCollector();
    for (let i = 0; i < 5; i++) collector.add(' '.repeat(MiB) + 'x');
    collector.add('y'.repeat(3 * MiB));
    expect(collector.isFull).toBe(true);
    expect(collector.text.length).toBe(MAX_TEXT_CHARS);
  });
});
