import { MediaUnprocessableError } from './errors.js';
import { isHeic, isRawImage } from './formats.js';
import { decodeHeif, heifCodecs } from './heif.js';
import type { ImageInput } from './image-thumbnailer.js';
import { rawPreview } from './raw.js';

/**
 * What the thumbnailer reads for an image file: a HEIC's pixels decoded in a worker, a RAW's
 * embedded JPEG preview with the RAW's orientation, or the bytes themselves for what sharp decodes.
 */
export async function imageInput(contentType: string, original: Buffer): Promise<ImageInput> {
  // An AV1-coded HEIF (AVIF by another name) is left to sharp, whose libheif decodes AV1.
  if (isHeic(contentType) && !heifCodecs(original).every((codec) => codec === 'av1C')) {
    return decodeHeif(original);
  }
  if (isRawImage(contentType)) {
    const preview = rawPreview(original);
    if (!preview) throw new MediaUnprocessableError('Cannot read the image: the RAW file has no embedded JPEG preview');
    return { data: Buffer.from(preview.jpeg.buffer, preview.jpeg.byteOffset, preview.jpeg.byteLength), orientation: preview.orientation };
  }
  return original;
}
