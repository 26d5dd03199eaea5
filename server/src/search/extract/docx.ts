import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { capWords, validDate } from './analysis.js';

/**
 * The most inflated XML one DOCX may cost. A few hundred KB of zip can declare gigabytes of
 * content; the reader stops at the declared size (it checks while inflating) and refuses any
 * part declaring more than this.
 */
export const MAX_DOCX_PART_BYTES = 32 * 1024 * 1024;
const PARTS = ['word/document.xml', 'docProps/core.xml'] as const;

function openZip(buffer: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, zip) =>
      err || !zip ? reject(err ?? new Error('not a zip')) : resolve(zip),
    ),
  );
}

function readEntry(zip: ZipFile, entry: Entry): Promise<string> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(err ?? new Error('unreadable entry'));
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  });
}

/** The parts of a DOCX this reader needs, each refused when it declares too much. */
async function readParts(buffer: Buffer): Promise<Map<string, string>> {
  const zip = await openZip(buffer);
  const parts = new Map<string, string>();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        if (!(PARTS as readonly string[]).includes(entry.fileName)) return zip.readEntry();
        if (entry.uncompressedSize > MAX_DOCX_PART_BYTES) return reject(new Error(`${entry.fileName} declares too much content`));
        readEntry(zip, entry).then((text) => {
          parts.set(entry.fileName, text);
          zip.readEntry();
        }, reject);
      });
      zip.on('end', () => resolve());
      zip.on('error', reject);
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return parts;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? '';
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** The words of `<w:t>` runs, one line per paragraph, tabs and breaks as spaces. */
function documentText(xml: string): string {
  return decodeXml(
    xml
      .replace(/<\/w:p>/g, '\n')
      .replace(/<w:(?:tab|br)\b[^>]*\/>/g, ' ')
      .replace(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<[^>]+>/g, (_, text: string | undefined) => text ?? ''),
  );
}

/** DOCX text and the creation date of its core properties. */
export async function readDocx(bytes: Uint8Array): Promise<{ text: string; date: number | null }> {
  const parts = await readParts(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const body = parts.get('word/document.xml');
  if (body === undefined) throw new Error('not a Word document');
  const core = parts.get('docProps/core.xml') ?? '';
  const title = decodeXml(core.match(/<dc:title>([^<]*)</)?.[1] ?? '');
  const created = core.match(/<dcterms:created[^>]*>([^<]+)</)?.[1];
  return { text: capWords(`${title} ${documentText(body)}`), date: validDate(created) };
}
