/**
 * Camera RAW files: their thumbnail and preview come from the JPEG preview the camera embeds (see
 * raw.ts), never from demosaicing the sensor data.
 */
export const RAW_IMAGE_TYPES: ReadonlyMap<string, string> = new Map([
  ['dng', 'image/x-adobe-dng'],
  ['cr2', 'image/x-canon-cr2'],
  ['cr3', 'image/x-canon-cr3'],
  ['nef', 'image/x-nikon-nef'],
  ['nrw', 'image/x-nikon-nef'],
  ['arw', 'image/x-sony-arw'],
  ['raf', 'image/x-fujifilm-raf'],
  ['orf', 'image/x-olympus-orf'],
]);
const RAW_TYPES = new Set(RAW_IMAGE_TYPES.values());

/** HEVC-coded HEIF: decoded by libheif-js in a worker (sharp's libvips has no HEVC decoder). */
const HEIC_TYPES = new Set(['image/heic', 'image/heic-sequence', 'image/heif', 'image/heif-sequence']);

/** Image types the thumbnailer decodes: sharp's own formats, HEIF through heif.ts, RAW through raw.ts. */
const THUMBNAIL_IMAGE_TYPES = new Set([
  ...RAW_TYPES,
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
  'image/heic',
  'image/heic-sequence',
  'image/heif',
  'image/heif-sequence',
]);

/** Every current browser shows these in an <img>; SVG is left out since it can carry script. */
const BROWSER_IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/bmp', 'image/apng']);

export function isRawImage(contentType: string): boolean {
  return RAW_TYPES.has(contentType);
}

export function isHeic(contentType: string): boolean {
  return HEIC_TYPES.has(contentType);
}

export function isThumbnailableImage(contentType: string): boolean {
  return THUMBNAIL_IMAGE_TYPES.has(contentType);
}

export function isBrowserImage(contentType: string): boolean {
  return BROWSER_IMAGE_TYPES.has(contentType);
}

export function isVideo(contentType: string): boolean {
  return contentType.startsWith('video/');
}
