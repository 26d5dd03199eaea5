import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { capWords, TextCollector, validDate } from './analysis.js';

const MAX_PAGES = 30;

/** PDF text of the first pages (until enough words) and the creation date of its metadata. */
export async function readPdf(bytes: Uint8Array): Promise<{ text: string; date: number | null }> {
  const doc = await getDocument({ data: bytes, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const text = new TextCollector();
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES) && !text.isFull; n++) {
      const page = await doc.getPage(n);
      try {
        // Cancelling a page's text stream half-way races in pdf.js (an enqueue on a closed
        // controller throws outside any promise), so each page is read whole.
        for (const item of (await page.getTextContent()).items) if ('str' in item) text.add(item.str + (item.hasEOL ? '\n' : ' '));
        text.add(' ');
      } finally {
        page.cleanup();
      }
    }
    const meta = await doc.getMetadata().catch(() => null);
    const info = (meta?.info ?? {}) as { CreationDate?: string; Title?: string; Subject?: string; Keywords?: string };
    const header = [info.Title, info.Subject, info.Keywords].filter((v) => typeof v === 'string').join(' ');
    return { text: capWords(`${header} ${text.text}`), date: pdfDate(info.CreationDate) };
  } finally {
    await doc.destroy();
  }
}

/** PDF dates look like D:20240131120000+01'00'. */
function pdfDate(value: string | undefined): number | null {
  const m = value?.match(/^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?/);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v, i) => (v === undefined ? (i === 1 || i === 2 ? 1 : 0) : Number(v))) as number[];
  return validDate(new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s)));
}
