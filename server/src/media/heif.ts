import os from 'node:os';
import { WorkerPool, WorkerTimeoutError, compiledWorker } from '../workers/pool.js';
import { MediaUnprocessableError } from './errors.js';
import type { HeifResult, HeifTask } from './heif.worker.js';
import { MAX_INPUT_PIXELS } from './image-thumbnailer.js';
import { Reader, boxes, child, type Box } from './isobmff.js';

/** A phone photo decodes in well under a second; a file still decoding after this is abandoned. */
const DECODE_TIMEOUT_MS = 60_000;
/**
 * WebAssembly memory only grows: a thread that decoded a 100 MP image keeps that much until it
 * ends, so idle threads end soon.
 */
const IDLE_MS = 15_000;

let pool: WorkerPool | null = null;

function heifPool(): WorkerPool {
  pool ??= new WorkerPool({
    file: compiledWorker('media/heif.worker.js'),
    threads: os.availableParallelism(),
    idleTimeoutMs: IDLE_MS,
    // The pixels live in WebAssembly memory, outside this heap; a heap that balloons is a fault.
    resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32 },
  });
  return pool;
}

export interface DecodedImage {
  rgba: Buffer;
  width: number;
  height: number;
  /** Whether the image has an alpha channel (the pixels are RGBA either way). */
  alpha: boolean;
}

/**
 * The primary image of a HEIC/HEIF file as upright RGBA pixels, decoded by libheif (WebAssembly) on
 * a worker thread, with its size checked against the pixel limit before decoding and a deadline.
 * libheif applies the container's rotation and mirror (`irot`, `imir`), which are what orient a
 * HEIF image; its EXIF orientation only repeats them and must not be applied again.
 */
export async function decodeHeif(data: Buffer, timeoutMs = DECODE_TIMEOUT_MS): Promise<DecodedImage> {
  const task: HeifTask = { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), maxPixels: MAX_INPUT_PIXELS };
  let result: HeifResult;
  try {
    result = await heifPool().run<HeifResult>(task, { timeoutMs });
  } catch (err) {
    const reason = err instanceof WorkerTimeoutError ? `decoding took longer than ${timeoutMs / 1000} s` : String(err);
    throw new MediaUnprocessableError(`Cannot read the image: ${reason}`, { cause: err });
  }
  if (!result.ok) throw new MediaUnprocessableError(`Cannot read the image: ${result.error}`);
  return {
    rgba: Buffer.from(result.rgba.buffer, result.rgba.byteOffset, result.rgba.byteLength),
    width: result.width,
    height: result.height,
    alpha: result.alpha,
  };
}

/** Ends the decoding threads (at shutdown); the next decode starts new ones. */
export async function closeHeifPool(): Promise<void> {
  const open = pool;
  pool = null;
  await open?.close();
}

/** The most bytes an EXIF item may span: real ones are a few KB. */
const MAX_EXIF_BYTES = 1024 * 1024;

function isHeifContainer(data: Uint8Array): boolean {
  const first = boxes(data, 0, Math.min(data.length, 64))[0];
  if (first?.type !== 'ftyp') return false;
  const brands = new Set<string>();
  for (let at = first.body; at + 4 <= first.end; at += 4)
    brands.add(String.fromCharCode(data[at]!, data[at + 1]!, data[at + 2]!, data[at + 3]!));
  return ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis'].some((brand) => brands.has(brand));
}

/** The ids of the `Exif` items listed in `iinf`. */
function exifItemIds(data: Uint8Array, iinf: { body: number; end: number }): number[] {
  const r = new Reader(data, iinf.body, iinf.end);
  const version = r.u8();
  r.at += 3;
  const count = version === 0 ? r.u16() : r.u32();
  const ids: number[] = [];
  for (const infe of boxes(data, r.at, iinf.end).slice(0, count)) {
    if (infe.type !== 'infe') continue;
    const e = new Reader(data, infe.body, infe.end);
    const v = e.u8();
    e.at += 3;
    if (v < 2) continue;
    const id = v === 2 ? e.u16() : e.u32();
    e.u16();
    if (e.fourcc() === 'Exif') ids.push(id);
  }
  return ids;
}

/**
 * The EXIF item of the primary image: a burst keeps one per image, each tied by a `cdsc` reference
 * to the image it describes. EXIF that describes only other images is not the photo's; a file
 * without references has its first.
 */
function primaryExifId(data: Uint8Array, meta: Box, ids: number[]): number | undefined {
  const pitm = child(data, meta, 'pitm', 4);
  const iref = child(data, meta, 'iref', 4);
  if (ids.length === 0 || !pitm || !iref) return ids[0];
  const p = new Reader(data, pitm.body, pitm.end);
  const version = p.u8();
  p.skip(3);
  const primary = version === 0 ? p.u16() : p.u32();
  const wide = data[iref.body] === 1;
  let described = false;
  for (const ref of boxes(data, iref.body + 4, iref.end)) {
    if (ref.type !== 'cdsc') continue;
    const e = new Reader(data, ref.body, ref.end);
    const from = wide ? e.u32() : e.u16();
    if (!ids.includes(from)) continue;
    described = true;
    const count = e.u16();
    for (let i = 0; i < count; i++) if ((wide ? e.u32() : e.u16()) === primary) return from;
  }
  return described ? undefined : ids[0];
}

/** The bytes of item `id` as `iloc` places them in the file (construction method 0 only). */
function itemBytes(data: Uint8Array, iloc: { body: number; end: number }, id: number): Uint8Array | null {
  const r = new Reader(data, iloc.body, iloc.end);
  const version = r.u8();
  r.at += 3;
  const sizes = r.u8();
  const more = r.u8();
  const [offsetSize, lengthSize, baseSize] = [sizes >> 4, sizes & 15, more >> 4];
  const indexSize = version === 1 || version === 2 ? more & 15 : 0;
  const count = version < 2 ? r.u16() : r.u32();
  for (let i = 0; i < count; i++) {
    const itemId = version < 2 ? r.u16() : r.u32();
    const method = version === 1 || version === 2 ? r.u16() & 15 : 0;
    r.u16();
    const base = r.uint(baseSize);
    const extents = r.u16();
    const parts: Uint8Array[] = [];
    let total = 0;
    for (let e = 0; e < extents; e++) {
      r.uint(indexSize);
      const offset = base + r.uint(offsetSize);
      const length = r.uint(lengthSize);
      if (itemId !== id) continue;
      const end = length === 0 ? data.length : offset + length;
      if (method !== 0 || end > data.length || end - offset + total > MAX_EXIF_BYTES) return null;
      parts.push(data.subarray(offset, end));
      total += end - offset;
    }
    if (itemId === id) return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }
  return null;
}

/**
 * The EXIF of a HEIF/AVIF file as a TIFF structure (what EXIF readers take), found through the
 * `meta` box's item list and locations (base offset included); null when there is none or the
 * container is not HEIF.
 */
export function heifExif(data: Uint8Array): Uint8Array | null {
  try {
    if (!isHeifContainer(data)) return null;
    const meta = boxes(data).find((box) => box.type === 'meta');
    if (!meta) return null;
    // `meta` is a full box: version and flags come before its children.
    const iinf = child(data, meta, 'iinf', 4);
    const iloc = child(data, meta, 'iloc', 4);
    if (!iinf || !iloc) return null;
    const id = primaryExifId(data, meta, exifItemIds(data, iinf));
    if (id === undefined) return null;
    const item = itemBytes(data, iloc, id);
    if (!item || item.length < 4) return null;
    // The item starts with the offset of the TIFF header within what follows.
    const skip = new DataView(item.buffer, item.byteOffset, item.byteLength).getUint32(0);
    if (4 + skip >= item.length) return null;
    return item.subarray(4 + skip);
  } catch {
    return null;
  }
}

/**
 * The codec configurations (`hvcC` for HEVC, `av1C` for AV1…) the file's item properties declare;
 * empty when there are none or the container cannot be read.
 */
export function heifCodecs(data: Uint8Array): string[] {
  try {
    const meta = boxes(data).find((box) => box.type === 'meta');
    const iprp = meta && child(data, meta, 'iprp', 4);
    const ipco = iprp && child(data, iprp, 'ipco');
    return ipco
      ? boxes(data, ipco.body, ipco.end)
          .map((box) => box.type)
          .filter((type) => type.endsWith('C'))
      : [];
  } catch {
    return [];
  }
}
