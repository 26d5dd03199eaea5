import { exifSource } from '../../media/exif.js';
import { sharp } from '../../media/sharp.js';
import { capWords, validDate, type Analysis } from './analysis.js';
import { looksLikeDocument, recognizeText } from './ocr.js';
import { pictureText, seePicture } from './vision/describe-picture.js';
import { placeOf } from './places.js';

/** Decoding beyond this is not worth it for search (and guards against decompression bombs). */
const MAX_PIXELS = 100_000_000;

interface Exif {
  DateTimeOriginal?: Date;
  CreateDate?: Date;
  latitude?: number;
  longitude?: number;
  Make?: string;
  Model?: string;
  ImageDescription?: string;
}

/** EXIF date and place of a photo; OCR text when it looks like a document, else what it shows. */
export async function analyzeImage(bytes: Uint8Array): Promise<Analysis> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { default: exifr } = await import('exifr');
  const exif = ((await exifr.parse(exifSource(buffer), { gps: true, tiff: true, exif: true, xmp: false, icc: false }).catch(() => null)) ??
    {}) as Exif;
  const place = exif.latitude !== undefined && exif.longitude !== undefined ? placeOf(exif.latitude, exif.longitude) : null;
  let text = '';
  let seen = '';
  try {
    const image = sharp()(buffer, { limitInputPixels: MAX_PIXELS, failOn: 'none' }).rotate();
    if (await looksLikeDocument(image)) text = await recognizeText(image);
    if (!text) seen = pictureText([await seePicture(image)]);
  } catch {
    // Undecodable pixels: EXIF and the name still describe the file.
  }
  const described = [exif.ImageDescription, exif.Make, exif.Model].filter((v) => typeof v === 'string').join(' ');
  return {
    kind: text ? 'scan' : 'photo',
    text: capWords(`${seen} ${described} ${text}`),
    contentDate: validDate(exif.DateTimeOriginal ?? exif.CreateDate),
    place,
  };
}
