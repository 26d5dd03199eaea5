import sharp from 'sharp';
import { MediaUnprocessableError } from './errors.js';

export const THUMBNAIL_WIDTH = 300;
// Keeps very tall images (receipts, screenshots of pages) from making huge thumbnails.
const THUMBNAIL_MAX_HEIGHT = 900;
// WebP's limit per side.
const PREVIEW_MAX_SIDE = 16_383;

// Every image is new to the server, so libvips' operation cache would only hold memory.
sharp.cache(false);

export interface EncodedImage {
  data: Buffer;
  width: number;
  height: number;
  contentType: string;
}

/** Decoding and encoding run on libuv's thread pool; the event loop only awaits them. */
async function encode(input: Buffer, build: (image: sharp.Sharp) => sharp.Sharp): Promise<EncodedImage> {
  try {
    const { data, info } = await build(sharp(input, { failOn: 'error' }).rotate()).toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, contentType: `image/${info.format}` };
  } catch (err) {
    throw new MediaUnprocessableError(`Cannot read the image: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** About 300 px wide, upright whatever the EXIF orientation, WebP (keeps transparency). */
export function imageThumbnail(input: Buffer): Promise<EncodedImage> {
  return encode(input, (image) =>
    image.resize({ width: THUMBNAIL_WIDTH, height: THUMBNAIL_MAX_HEIGHT, fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }),
  );
}

/** Full size, upright, in a format every browser displays: for TIFF, HEIC and the like. */
export function imagePreview(input: Buffer): Promise<EncodedImage> {
  return encode(input, (image) =>
    image.resize({ width: PREVIEW_MAX_SIDE, height: PREVIEW_MAX_SIDE, fit: 'inside', withoutEnlargement: true }).webp({ quality: 85 }),
  );
}
