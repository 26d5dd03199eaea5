/** Image types the thumbnailer decodes (HEIC/HEIF only where the installed libheif can). */
const THUMBNAIL_IMAGE_TYPES = new Set([
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

export function isThumbnailableImage(contentType: string): boolean {
  return THUMBNAIL_IMAGE_TYPES.has(contentType);
}

export function isBrowserImage(contentType: string): boolean {
  return BROWSER_IMAGE_TYPES.has(contentType);
}

export function isVideo(contentType: string): boolean {
  return contentType.startsWith('video/');
}
