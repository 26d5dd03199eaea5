import fc from 'fast-check';
import JSZip from 'jszip';
import { readFileSync } from 'node:fs';
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

const document = (body: string) => `<w:document><w:body>${body}</w:body></w:document>`;

describe('document text is read only as far as the index needs it', () => {
  // A thread far below the production limit: a reader that holds a whole inflated part, or splits
  // a whole text into words, runs out of heap here and fails the task.
  const pool = new ComputePool(1, { resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 } });
  afterAll(() => pool.close());

  const analyze = (filename: string, bytes: Uint8Array) => {
    const copy = new Uint8Array(bytes);
    return pool.run({ type: 'analyze', filename, contentType: DOCX, bytes: copy }, [copy.buffer]);
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
