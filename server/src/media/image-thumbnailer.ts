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

/**
 * What to thumbnail: encoded bytes (turned upright by their own EXIF orientation, or by
 * `orientation` when the orientation is stored outside them, as a RAW's is for its embedded JPEG),
 * or pixels a decoder in a worker already produced upright (HEIC).
 */
export type ImageInput =
  Buffer | { data: Buffer; orientation: number | null } | { rgba: Buffer; width: number; height: number; alpha: boolean };

/**
 * An EXIF orientation (1-8) applied to the pixels. sharp mirrors before it rotates, so the
 * transposing ones (5, 7) are a mirror and a quarter turn.
 */
function orient(image: Sharp.Sharp, orientation: number): Sharp.Sharp {
  switch (orientation) {
    case 2:
      return image.flop();
    case 3:
      return image.rotate(180);
    case 4:
      return image.flip();
    case 5:
      return image.flip().rotate(90);
    case 6:
      return image.rotate(90);
    case 7:
      return image.flop().rotate(90);
    case 8:
      return image.rotate(270);
    default:
      return image;
  }
}

function open(input: ImageInput): Sharp.Sharp {
  const limits = { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS } as const;
  if (Buffer.isBuffer(input)) return sharp()(input, { ...limits, sequentialRead: true }).rotate();
  if ('rgba' in input) {
    const image = sharp()(input.rgba, { ...limits, raw: { width: input.width, height: input.height, channels: 4 } });
    return input.alpha ? image : image.removeAlpha();
  }
  const image = sharp()(input.data, { ...limits, sequentialRead: true });
  return input.orientation === null ? image.rotate() : orient(image, input.orientation);
}

/** Decoding and encoding run on libuv's thread pool; the event loop only awaits them. */
async function encode(input: ImageInput, build: (image: Sharp.Sharp) => Sharp.Sharp): Promise<EncodedImage> {
  try {
    const { data, info } = await build(open(input)).toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, contentType: `image/${info.format}` };
  } catch (err) {
    throw new MediaUnprocessableError(`Cannot read the image: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** About 300 px wide, upright whatever the EXIF orientation, WebP (keeps transparency). */
export function imageThumbnail(input: ImageInput): Promise<EncodedImage> {
  return encode(input, (image) =>
    image.resize({ width: THUMBNAIL_WIDTH, height: THUMBNAIL_MAX_HEIGHT, fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }),
  );
}

/**
 * Full size, upright, in a format every browser displays: for TIFF, HEIC, RAW and the like. A
 * photo without transparency (a HEIC without alpha, a RAW's JPEG) becomes a JPEG, which encodes
 * several times faster than WebP at this size.
 */
export function imagePreview(input: ImageInput): Promise<EncodedImage> {
  const opaquePhoto = !Buffer.isBuffer(input) && !('alpha' in input && input.alpha);
  return encode(input, (image) => {
    const sized = image.resize({ width: PREVIEW_MAX_SIDE, height: PREVIEW_MAX_SIDE, fit: 'inside', withoutEnlargement: true });
    return opaquePhoto ? sized.jpeg({ quality: 85, mozjpeg: false }) : sized.webp({ quality: 85 });
  });
}
