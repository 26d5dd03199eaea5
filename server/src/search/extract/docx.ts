import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { capWords, TextCollector, validDate } from './analysis.js';

/**
 * The most inflated XML read from one part. A few KB of zip can inflate to gigabytes; the part is
 * parsed as it inflates and reading stops here (or as soon as enough words are in), so what a part
 * declares or holds beyond this costs nothing.
 */
export const MAX_DOCX_PART_BYTES = 8 * 1024 * 1024;
/** The core properties hold a title and a few dates. */
const MAX_CORE_BYTES = 256 * 1024;
const BODY = 'word/document.xml';
const CORE = 'docProps/core.xml';

function openZip(buffer: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, zip) =>
      err || !zip ? reject(err ?? new Error('not a zip')) : resolve(zip),
    ),
  );
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => (err || !stream ? reject(err ?? new Error('unreadable entry')) : resolve(stream))),
  );
}

/**
 * Runs each reader on its part as the zip lists it (the first entry of a name only, so copies of a
 * part cannot multiply the work). Returns the names of the parts found.
 */
async function readParts(buffer: Buffer, readers: Record<string, (stream: Readable) => Promise<void>>): Promise<Set<string>> {
  const zip = await openZip(buffer);
  const found = new Set<string>();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        const read = Object.hasOwn(readers, entry.fileName) ? readers[entry.fileName] : undefined;
        if (!read || found.has(entry.fileName)) return zip.readEntry();
        found.add(entry.fileName);
        openEntry(zip, entry)
          .then(read)
          .then(() => zip.readEntry(), reject);
      });
      zip.on('end', () => resolve());
      zip.on('error', reject);
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return found;
}

/** Word nests tables in tables, but not hundreds deep; deeper is a bomb of open tags. */
const MAX_XML_DEPTH = 256;

interface PartReader {
  open?(name: string): void;
  close?(name: string): void;
  text?(text: string): void;
  isDone(): boolean;
}

/**
 * Parses a part's XML while it inflates, up to `maxBytes` and no further once `isDone()`. Leaving
 * the loop early destroys the stream, so the rest is never inflated; closing the parser then hands
 * over the text it held back (a run cut off by the limit still gives its first words). XML that
 * turns out malformed, or nested past reason, keeps what was read before the fault.
 */
async function parsePart(stream: Readable, maxBytes: number, reader: PartReader): Promise<void> {
  const parser = new SaxesParser({ position: false });
  let failed = false;
  let depth = 0;
  parser.on('error', () => {
    failed = true;
  });
  parser.on('opentag', ({ name }) => {
    if (++depth > MAX_XML_DEPTH) failed = true;
    else reader.open?.(name);
  });
  parser.on('closetag', ({ name }) => {
    depth--;
    reader.close?.(name);
  });
  parser.on('text', (text) => reader.text?.(text));
  const decoder = new StringDecoder('utf8');
  let read = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const part = chunk.subarray(0, maxBytes - read);
    read += part.length;
    parser.write(decoder.write(part));
    if (failed || read >= maxBytes || reader.isDone()) break;
  }
  if (!failed) parser.close();
}

/** The words of `<w:t>` runs, one line per paragraph, tabs and breaks as spaces. */
function bodyReader(body: TextCollector): PartReader {
  let inText = false;
  return {
    open: (name) => {
      if (name === 'w:t') inText = true;
      else if (name === 'w:tab' || name === 'w:br') body.add(' ');
    },
    close: (name) => {
      if (name === 'w:t') inText = false;
      else if (name === 'w:p') body.add('\n');
    },
    text: (text) => {
      if (inText) body.add(text);
    },
    isDone: () => body.isFull,
  };
}

/** The first title and creation date of the core properties. */
function coreReader(core: { title: TextCollector; created: string }): PartReader {
  let field: 'title' | 'created' | null = null;
  return {
    open: (name) => {
      field = name === 'dc:title' && !core.title.text ? 'title' : name === 'dcterms:created' && !core.created ? 'created' : null;
    },
    close: () => {
      field = null;
    },
    text: (text) => {
      if (field === 'title') core.title.add(text);
      else if (field === 'created') core.created = text.trim().slice(0, 64);
    },
    isDone: () => Boolean(core.title.text && core.created),
  };
}

/** DOCX text and the creation date of its core properties. */
export async function readDocx(bytes: Uint8Array): Promise<{ text: string; date: number | null }> {
  const body = new TextCollector();
  const core = { title: new TextCollector(), created: '' };
  const found = await readParts(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    [BODY]: (stream) => parsePart(stream, MAX_DOCX_PART_BYTES, bodyReader(body)),
    [CORE]: (stream) => parsePart(stream, MAX_CORE_BYTES, coreReader(core)),
  });
  if (!found.has(BODY)) throw new Error('not a Word document');
  return { text: capWords(`${core.title.text} ${body.text}`), date: validDate(core.created || undefined) };
}
