import { sharp } from '../../media/sharp.js';
import type { RgbImage } from './clip-model.js';

export type { RgbImage } from './clip-model.js';

/** Decoding beyond this is not worth it for search (and guards against decompression bombs). */
const MAX_PIXELS = 100_000_000;

/**
 * A picture (photo, or a video frame as PNG/JPEG) as upright packed RGB whose short side is at
 * most `shortSide`: a little above the model's input, so the model's own processor still does the
 * final resize and crop. JPEGs shrink while decoding, which keeps a 12-megapixel photo cheap.
 */
export async function decodeForClip(bytes: Uint8Array, shortSide = 256): Promise<RgbImage> {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { data, info } = await sharp()(input, { limitInputPixels: MAX_PIXELS, failOn: 'none' })
    .rotate()
    .resize({ width: shortSide, height: shortSide, fit: 'outside', withoutEnlargement: true })
    // Transparent areas read as white, as a viewer shows them.
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`decoded to ${info.channels} channels, not RGB`);
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/** A video frame (PNG or JPEG bytes) for the model: the same decoding as a photo. */
export const decodeRawFrame = decodeForClip;
