import { boxes } from './isobmff.js';

/**
 * The JPEG preview a camera stores in its RAW file, and how to turn it upright: `orientation` is
 * the RAW's own EXIF orientation (1-8) when the container has one, else null and the JPEG's own
 * EXIF (if any) decides.
 */
export interface RawPreview {
  jpeg: Uint8Array;
  orientation: number | null;
}

/** Real files have a handful of IFDs with a few dozen tags each; more is a crafted file. */
const MAX_IFDS = 64;
const MAX_TAGS = 1000;

const TAG = {
  compression: 259,
  photometric: 262,
  stripOffsets: 273,
  orientation: 274,
  stripByteCounts: 279,
  subIfds: 330,
  jpegOffset: 513,
  jpegLength: 514,
  exifIfd: 34665,
  makerNote: 37500,
  olympusCameraSettings: 0x2020,
  olympusPreviewStart: 0x0101,
  olympusPreviewLength: 0x0102,
} as const;

interface Entry {
  type: number;
  count: number;
  /** Where the value lies: in the entry itself when it fits in 4 bytes, else at its offset. */
  at: number;
}

/** A TIFF structure (as in DNG, CR2, NEF, ARW, ORF, or a CR3's CMT1 box) read with bounds checks. */
class Tiff {
  private readonly view: DataView;
  readonly littleEndian: boolean;

  /**
   * `base` is where offsets inside are counted from: the TIFF header, or a maker note that has its
   * own (`orderAt`: where its byte-order mark is, when not at `base`).
   */
  constructor(
    private readonly data: Uint8Array,
    readonly base: number,
    private readonly end: number,
    orderAt = base,
  ) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const order = String.fromCharCode(data[orderAt] ?? 0, data[orderAt + 1] ?? 0);
    if (order !== 'II' && order !== 'MM') throw new RangeError('not a TIFF structure');
    this.littleEndian = order === 'II';
  }

  private check(at: number, bytes: number): number {
    const absolute = this.base + at;
    if (at < 0 || absolute + bytes > this.end) throw new RangeError('TIFF offset out of bounds');
    return absolute;
  }

  u16(at: number): number {
    return this.view.getUint16(this.check(at, 2), this.littleEndian);
  }

  u32(at: number): number {
    return this.view.getUint32(this.check(at, 4), this.littleEndian);
  }

  get firstIfd(): number {
    return this.u32(4);
  }

  /** The entries of the IFD at `at` and the offset of the next IFD (0 at the end of the chain). */
  ifd(at: number): { entries: Map<number, Entry>; next: number } {
    const count = this.u16(at);
    if (count > MAX_TAGS) throw new RangeError('too many TIFF tags');
    const entries = new Map<number, Entry>();
    for (let i = 0; i < count; i++) {
      const e = at + 2 + i * 12;
      const tag = this.u16(e);
      const type = this.u16(e + 2);
      const entryCount = this.u32(e + 4);
      const width = type === 3 || type === 8 ? 2 : type === 4 || type === 9 || type === 13 ? 4 : 1;
      const bytes = width * entryCount;
      entries.set(tag, { type, count: entryCount, at: bytes <= 4 ? e + 8 : this.u32(e + 8) });
    }
    return { entries, next: this.u32(at + 2 + count * 12) };
  }

  /** The `index`th value of a SHORT or LONG entry. */
  value(entry: Entry | undefined, index = 0): number | undefined {
    if (!entry || index >= entry.count) return undefined;
    if (entry.type === 3) return this.u16(entry.at + index * 2);
    if (entry.type === 4 || entry.type === 13) return this.u32(entry.at + index * 4);
    return undefined;
  }

  /** Absolute file offsets of a range given relative to the TIFF base, if it lies within the file. */
  range(offset: number, length: number): { start: number; end: number } | null {
    const start = this.base + offset;
    if (offset <= 0 || length <= 0 || start + length > this.end) return null;
    return { start, end: start + length };
  }
}

/** The pixel size of a JPEG that a browser-grade decoder reads (baseline, extended or progressive); null for lossless JPEG or junk. */
function jpegSize(data: Uint8Array, start: number, end: number): { width: number; height: number } | null {
  if (end - start < 4 || data[start] !== 0xff || data[start + 1] !== 0xd8) return null;
  let at = start + 2;
  for (let markers = 0; markers < 1000 && at + 4 <= end; markers++) {
    if (data[at] !== 0xff) return null;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = (data[at + 2]! << 8) | data[at + 3]!;
    // SOF0 (baseline), SOF1 (extended), SOF2 (progressive); the RAW data's lossless SOF3 is not a preview.
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      if (at + 9 > end) return null;
      const height = (data[at + 5]! << 8) | data[at + 6]!;
      const width = (data[at + 7]! << 8) | data[at + 8]!;
      return width > 0 && height > 0 ? { width, height } : null;
    }
    if ((marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) || marker === 0xda) return null;
    at += 2 + length;
  }
  return null;
}

interface Candidate {
  start: number;
  end: number;
  pixels: number;
}

function better(a: Candidate | null, b: Candidate | null): Candidate | null {
  if (!a) return b;
  if (!b) return a;
  return b.pixels > a.pixels || (b.pixels === a.pixels && b.end - b.start > a.end - a.start) ? b : a;
}

function candidate(data: Uint8Array, range: { start: number; end: number } | null): Candidate | null {
  if (!range) return null;
  const size = jpegSize(data, range.start, range.end);
  return size ? { ...range, pixels: size.width * size.height } : null;
}

/**
 * The largest JPEG a TIFF-based RAW keeps: in IFD0 and its chain (CR2's full-size preview as a
 * JPEG strip, ARW's and ORF's preview, the IFD1 thumbnail) and in SubIFDs (NEF's JpgFromRaw, DNG's
 * preview). The sensor data (lossless JPEG or uncompressed) is passed over.
 */
function tiffPreview(data: Uint8Array, base: number, end: number): RawPreview | null {
  const tiff = new Tiff(data, base, end);
  const queue = [tiff.firstIfd];
  const seen = new Set<number>();
  let best: Candidate | null = null;
  let orientation: number | null = null;
  while (queue.length > 0 && seen.size < MAX_IFDS) {
    const at = queue.shift()!;
    if (at === 0 || seen.has(at)) continue;
    seen.add(at);
    let ifd: ReturnType<Tiff['ifd']>;
    try {
      ifd = tiff.ifd(at);
    } catch {
      continue;
    }
    const { entries } = ifd;
    try {
      if (seen.size === 1) {
        const value = tiff.value(entries.get(TAG.orientation));
        if (value !== undefined && value >= 1 && value <= 8) orientation = value;
      }
      const offset = tiff.value(entries.get(TAG.jpegOffset));
      const length = tiff.value(entries.get(TAG.jpegLength));
      if (offset !== undefined && length !== undefined) best = better(best, candidate(data, tiff.range(offset, length)));
      const compression = tiff.value(entries.get(TAG.compression));
      const photometric = tiff.value(entries.get(TAG.photometric));
      const strips = entries.get(TAG.stripOffsets);
      // One JPEG strip that is not sensor data (CFA 32803, LinearRaw 34892).
      if ((compression === 6 || compression === 7) && strips?.count === 1 && photometric !== 32803 && photometric !== 34892) {
        const stripOffset = tiff.value(strips);
        const stripLength = tiff.value(entries.get(TAG.stripByteCounts));
        if (stripOffset !== undefined && stripLength !== undefined)
          best = better(best, candidate(data, tiff.range(stripOffset, stripLength)));
      }
      const subIfds = entries.get(TAG.subIfds);
      for (let i = 0; subIfds && i < Math.min(subIfds.count, MAX_IFDS); i++) {
        const sub = subIfds.type === 3 ? tiff.value(subIfds, i) : tiff.u32(subIfds.at + i * 4);
        if (sub) queue.push(sub);
      }
    } catch {
      // A damaged entry: what was found elsewhere still counts.
    }
    queue.push(ifd.next);
  }
  best = better(best, olympusPreview(data, tiff, end));
  return best ? { jpeg: data.subarray(best.start, best.end), orientation } : null;
}

/**
 * Olympus keeps an ORF's large preview in its maker note (EXIF IFD, then the maker note's
 * CameraSettings IFD), with offsets counted from the maker note's start; elsewhere the file only
 * has a small thumbnail.
 */
function olympusPreview(data: Uint8Array, tiff: Tiff, end: number): Candidate | null {
  try {
    const exifAt = tiff.value(tiff.ifd(tiff.firstIfd).entries.get(TAG.exifIfd));
    if (!exifAt) return null;
    const note = tiff.ifd(exifAt).entries.get(TAG.makerNote);
    if (!note || note.count < 16) return null;
    const start = tiff.base + note.at;
    if (String.fromCharCode(...data.subarray(start, start + 8)) !== 'OLYMPUS\0') return null;
    const maker = new Tiff(data, start, Math.min(end, start + note.count), start + 8);
    const settings = maker.ifd(12).entries.get(TAG.olympusCameraSettings);
    // CameraSettings is an IFD stored as a value (type IFD or UNDEFINED) or pointed at (LONG).
    const settingsAt = settings ? (settings.type === 4 || settings.type === 13 ? maker.value(settings) : settings.at) : undefined;
    if (!settingsAt) return null;
    const entries = maker.ifd(settingsAt).entries;
    const offset = maker.value(entries.get(TAG.olympusPreviewStart));
    const length = maker.value(entries.get(TAG.olympusPreviewLength));
    if (offset === undefined || length === undefined) return null;
    // The preview lies beyond the maker note itself: bounded by the file, not by the note.
    return candidate(data, new Tiff(data, start, end, start + 8).range(offset, length));
  } catch {
    return null;
  }
}

/** Fujifilm RAF: a fixed header gives the offset and length of a full EXIF JPEG (which carries its own orientation). */
function rafPreview(data: Uint8Array): RawPreview | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (data.length < 92) return null;
  const offset = view.getUint32(84);
  const length = view.getUint32(88);
  const found = candidate(
    data,
    offset > 0 && length > 0 && offset + length <= data.length ? { start: offset, end: offset + length } : null,
  );
  return found ? { jpeg: data.subarray(found.start, found.end), orientation: null } : null;
}

/**
 * Canon CR3 (ISO base media): the preview (`PRVW`, about 1620×1080) sits in a `uuid` box, the small
 * `THMB` in the `uuid` box of `moov` next to `CMT1`, whose TIFF IFD0 holds the orientation.
 */
function cr3Preview(data: Uint8Array): RawPreview | null {
  let best: Candidate | null = null;
  let orientation: number | null = null;
  const visit = (from: number, to: number, depth: number): void => {
    if (depth > 4) return;
    for (const box of boxes(data, from, to)) {
      if (box.type === 'PRVW' || box.type === 'THMB') {
        // A few header fields (size, length) come before the JPEG; it runs to the box's end.
        for (let at = box.body; at < Math.min(box.body + 32, box.end - 2); at++) {
          if (data[at] === 0xff && data[at + 1] === 0xd8 && data[at + 2] === 0xff) {
            best = better(best, candidate(data, { start: at, end: box.end }));
            break;
          }
        }
      } else if (box.type === 'CMT1') {
        try {
          const tiff = new Tiff(data, box.body, box.end);
          const value = tiff.value(tiff.ifd(tiff.firstIfd).entries.get(TAG.orientation));
          if (value !== undefined && value >= 1 && value <= 8) orientation = value;
        } catch {
          // No orientation: the preview is shown as stored.
        }
      } else if (box.type === 'moov' || box.type === 'uuid') {
        visit(box.body, box.end, depth + 1);
        // The preview's uuid box has 8 more bytes before its children.
        if (box.type === 'uuid') visit(box.body + 8, box.end, depth + 1);
      }
    }
  };
  visit(0, data.length, 0);
  const found = best as Candidate | null;
  return found ? { jpeg: data.subarray(found.start, found.end), orientation } : null;
}

/** The largest embedded JPEG preview of a RAW file, or null when it has none a browser-grade decoder reads. */
export function rawPreview(data: Uint8Array): RawPreview | null {
  try {
    const head = String.fromCharCode(...data.subarray(0, 16));
    if (head.startsWith('FUJIFILMCCD-RAW')) return rafPreview(data);
    if (head.slice(4, 8) === 'ftyp') return cr3Preview(data);
    // TIFF (II*\0, MM\0*) and Olympus' variants of its magic number (IIRO, IIRS, MMOR).
    if (head.startsWith('II') || head.startsWith('MM')) return tiffPreview(data, 0, data.length);
    return null;
  } catch {
    return null;
  }
}
