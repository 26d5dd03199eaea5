import type Sharp from 'sharp';
import { sharp } from './sharp.js';
import { MediaUnprocessableError } from './errors.js';

export const THUMBNAIL_WIDTH = 300;
// Keeps very tall images (receipts, screenshots of pages) from making huge thumbnails.
const THUMBNAIL_MAX_HEIGHT = 900;
/** Browsers show nothing sharper on any screen; a bigger preview only costs memory. */
export const PREVIEW_MAX_SIDE = 4096;
/**
 * Larger images are not decoded (a few hundred KB of deflated TIFF can declare 144 MP, over a GiB
 * once decoded); they keep their generic icon. 100 MP covers every camera and phone photo.
 */
export const MAX_INPUT_PIXELS = 100_000_000;

// Every image is new to the server, so libvips' operation cache would only hold memory.

export interface EncodedImage {
  data: Buffer;
  width: number;
  height: number;
  contentType: string;
}

/** Decoding and encoding run on libuv's thread pool; the event loop only awaits them. */
async function encode(input: Buffer, build: (image: Sharp.Sharp) => Sharp.Sharp): Promise<EncodedImage> {
  try {
    const image = sharp()(input, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true });
    const { data, info } = await build(image.rotate()).toBuffer({ resolveWithObject: true });
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
