import JSZip from 'jszip';
import mammoth from 'mammoth';
import { capWords, validDate } from './analysis.js';

/** DOCX text and the creation date of its core properties. */
export async function readDocx(bytes: Uint8Array): Promise<{ text: string; date: number | null }> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { value } = await mammoth.extractRawText({ buffer });
  const zip = await JSZip.loadAsync(buffer);
  const core = (await zip.file('docProps/core.xml')?.async('string')) ?? '';
  const title = core.match(/<dc:title>([^<]*)</)?.[1] ?? '';
  const created = core.match(/<dcterms:created[^>]*>([^<]+)</)?.[1];
  return { text: capWords(`${title} ${value}`), date: validDate(created) };
}
