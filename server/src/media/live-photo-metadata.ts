/** Where an Android motion photo's video sits in the file: bytes `start` to `end` (exclusive). */
export interface ClipSpan {
  start: number;
  end: number;
}

/** What a photo says about its motion: a Live Photo identifier, a motion-photo clip, or why the clip cannot be read. */
export interface PhotoMotion {
  contentId: string | null;
  clip: ClipSpan | null;
  /** Set when the photo claims to be a motion photo but its XMP places the clip impossibly. */
  clipError: string | null;
}

/** Identifiers are UUIDs; anything else printable and short is kept as it is, the rest ignored. */
const CONTENT_ID = /^[\x21-\x7e]{1,128}$/;
/** XMP packets are small; a longer one is not read as a whole string. */
const MAX_XMP_CHARS = 1024 * 1024;
const APPLE_HEADER = 'Apple iOS\0';
const CONTENT_ID_TAG = 0x11;
const ASCII = 2;

export function validContentId(value: string | null | undefined): string | null {
  const trimmed = value?.replace(/\0+$/, '').trim();
  return trimmed && CONTENT_ID.test(trimmed) ? trimmed : null;
}

/**
 * The ContentIdentifier (tag 0x11) of an Apple maker note: "Apple iOS\0", a version, the byte order,
 * then one IFD whose offsets count from the maker note's start. Every offset is checked against the
 * note's bounds; a malformed note has no identifier.
 */
export function appleContentId(note: Uint8Array): string | null {
  const bytes = Buffer.from(note.buffer, note.byteOffset, note.byteLength);
  if (bytes.length < 16 || bytes.toString('latin1', 0, APPLE_HEADER.length) !== APPLE_HEADER) return null;
  const order = bytes.toString('latin1', 12, 14);
  if (order !== 'MM' && order !== 'II') return null;
  const u16 = (at: number) => (order === 'MM' ? bytes.readUInt16BE(at) : bytes.readUInt16LE(at));
  const u32 = (at: number) => (order === 'MM' ? bytes.readUInt32BE(at) : bytes.readUInt32LE(at));
  const ifd = 14;
  const count = u16(ifd);
  if (ifd + 2 + count * 12 > bytes.length) return null;
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (u16(entry) !== CONTENT_ID_TAG || u16(entry + 2) !== ASCII) continue;
    const length = u32(entry + 4);
    const at = length <= 4 ? entry + 8 : u32(entry + 8);
    if (length === 0 || length > 256 || at + length > bytes.length) return null;
    return validContentId(bytes.toString('latin1', at, at + length));
  }
  return null;
}

/** The raw maker note of a JPEG or HEIC, as exifr finds it; null when there is none or it cannot be read. */
async function makerNoteOf(data: Buffer): Promise<Uint8Array | null> {
  const { default: exifr } = await import('exifr');
  const parsed = (await exifr
    .parse(data, {
      makerNote: true,
      tiff: true,
      exif: true,
      ifd1: false,
      gps: false,
      interop: false,
      xmp: false,
      icc: false,
      iptc: false,
      jfif: false,
      ihdr: false,
      mergeOutput: false,
      translateKeys: true,
    })
    .catch(() => null)) as Record<string, unknown> | null;
  if (!parsed) return null;
  const candidates = [parsed['makerNote'], (parsed['exif'] as Record<string, unknown> | undefined)?.['MakerNote']];
  for (const value of candidates) if (value instanceof Uint8Array) return value;
  return null;
}

/** The XMP packet of a JPEG (its first APP1 segment in the XMP namespace), read up to the image data. */
export function jpegXmp(data: Buffer): string | null {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return null;
  const signature = 'http://ns.adobe.com/xap/1.0/\0';
  let at = 2;
  while (at + 4 <= data.length) {
    if (data[at] !== 0xff) return null;
    const marker = data[at + 1]!;
    // Fill bytes, then markers without a length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    // Start of scan or end of image: the metadata segments are all before.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = data.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > data.length) return null;
    const body = at + 4;
    if (marker === 0xe1 && length - 2 > signature.length && data.toString('latin1', body, body + signature.length) === signature) {
      const end = Math.min(at + 2 + length, body + signature.length + MAX_XMP_CHARS);
      return data.toString('utf8', body + signature.length, end);
    }
    at += 2 + length;
  }
  return null;
}

/** An attribute or element of the given local name, under any namespace prefix. */
function xmpValue(xmp: string, name: string): string | null {
  const attribute = new RegExp(`\\b[\\w.-]+:${name}\\s*=\\s*["']([^"']{0,64})["']`).exec(xmp);
  if (attribute) return attribute[1]!.trim();
  const element = new RegExp(`<[\\w.-]+:${name}>([^<]{0,64})</[\\w.-]+:${name}>`).exec(xmp);
  return element ? element[1]!.trim() : null;
}

function nonNegativeInteger(value: string | null): number | null {
  if (value === null || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

/** Items of a Container:Directory, in order, as their attribute maps (Semantic, Length, Padding, Mime). */
function directoryItems(xmp: string): Record<string, string>[] {
  const items: Record<string, string>[] = [];
  for (const match of xmp.matchAll(/<[\w.-]+:Item\b([^>]{0,2000})>/g)) {
    const attributes: Record<string, string> = {};
    for (const a of match[1]!.matchAll(/[\w.-]+:(\w+)\s*=\s*["']([^"']{0,200})["']/g)) attributes[a[1]!] = a[2]!;
    items.push(attributes);
    if (items.length > 64) break;
  }
  return items;
}

type ClipPlacement = { clip: ClipSpan } | { error: string } | null;

/**
 * Where the XMP of a Google/Android motion photo (Camera:MotionPhoto, or the older
 * GCamera:MicroVideo) puts its video, which is appended after the JPEG: by the directory's item
 * lengths counted from the end of the file, or by MicroVideoOffset (bytes from the end). Null for
 * a photo that is no motion photo.
 */
export function motionClipOf(xmp: string, fileSize: number): ClipPlacement {
  const motion = xmpValue(xmp, 'MotionPhoto') === '1';
  const micro = xmpValue(xmp, 'MicroVideo') === '1';
  if (!motion && !micro) return null;
  let start: number | null = null;
  let end = fileSize;
  const items = directoryItems(xmp);
  const index = items.findIndex((item) => item['Semantic'] === 'MotionPhoto');
  if (index > 0) {
    const length = nonNegativeInteger(items[index]!['Length'] ?? null);
    if (length === null || length === 0) return { error: 'The motion photo does not give its video length' };
    let after = 0;
    for (const item of items.slice(index + 1)) after += nonNegativeInteger(item['Length'] ?? null) ?? 0;
    end = fileSize - after;
    start = end - length;
  } else {
    const offset = nonNegativeInteger(xmpValue(xmp, 'MicroVideoOffset'));
    if (offset === null || offset === 0) return { error: 'The motion photo does not say where its video is' };
    start = fileSize - offset;
  }
  if (start <= 0 || end <= start || end > fileSize) return { error: 'The motion photo places its video outside the file' };
  return { clip: { start, end } };
}

const MOTION_TYPES = new Set(['image/jpeg']);
/** Photo types that may be a Live Photo's still or a motion photo. */
export const MOTION_PHOTO_TYPES = ['image/jpeg', 'image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'];
const LIVE_STILL_TYPES = new Set(MOTION_PHOTO_TYPES);

/** Photo types that may be a Live Photo's still or a motion photo. */
export function mayHaveMotion(contentType: string): boolean {
  return LIVE_STILL_TYPES.has(contentType);
}

/** Reads a photo's Live Photo identifier and motion-photo clip placement. Never throws for a malformed file. */
export async function photoMotion(data: Buffer, contentType: string): Promise<PhotoMotion> {
  const note = LIVE_STILL_TYPES.has(contentType) ? await makerNoteOf(data) : null;
  const contentId = note ? appleContentId(note) : null;
  const xmp = MOTION_TYPES.has(contentType) ? jpegXmp(data) : null;
  const placement = xmp ? motionClipOf(xmp, data.length) : null;
  return {
    contentId,
    clip: placement && 'clip' in placement ? placement.clip : null,
    clipError: placement && 'error' in placement ? placement.error : null,
  };
}
