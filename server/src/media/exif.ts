import { heifExif } from './heif.js';
import { rawPreview } from './raw.js';

/**
 * The bytes an EXIF reader should parse for a photo. Most formats (JPEG, TIFF and the TIFF-based
 * RAWs) are read as they are; a HEIF file's EXIF item is located here, since readers that ignore
 * `iloc`'s base offset miss it, and a Fujifilm RAF keeps its EXIF in its embedded JPEG.
 */
export function exifSource(data: Buffer): Buffer {
  const tiff = heifExif(data);
  if (tiff) return Buffer.from(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  if (data.subarray(0, 15).toString('latin1') === 'FUJIFILMCCD-RAW') {
    const preview = rawPreview(data);
    if (preview) return Buffer.from(preview.jpeg.buffer, preview.jpeg.byteOffset, preview.jpeg.byteLength);
  }
  return data;
}
