import { createRequire } from 'node:module';
import type sharp from 'sharp';
import { createWorker, OEM, type Worker } from 'tesseract.js';

/** Longest side given to OCR: enough for body text of a page photo, and ~4x cheaper than 12 MP. */
const OCR_SIDE = 1800;
const MIN_CONFIDENCE = 45;
const MIN_WORDS = 5;
let worker: Promise<Worker> | null = null;

function ocrWorker(): Promise<Worker> {
  // The language data comes from an npm package; without a local langPath tesseract.js
  // tries to download it and hangs offline.
  const { langPath } = createRequire(import.meta.url)('@tesseract.js-data/eng') as { langPath: string };
  worker ??= createWorker('eng', OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    cacheMethod: 'none',
    logger: () => undefined,
    errorHandler: () => undefined,
  });
  return worker;
}

/**
 * Whether an image looks like paper (a scan, a photographed page or card): mostly light,
 * unsaturated pixels. Decides whether OCR (about a second) is worth running.
 */
export async function looksLikeDocument(image: sharp.Sharp): Promise<boolean> {
  const { data, info } = await image.clone().resize(64, 64, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let paper = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const [r, g, b] = [data[i] as number, data[i + 1] ?? (data[i] as number), data[i + 2] ?? (data[i] as number)];
    if (Math.min(r, g, b) > 150 && Math.max(r, g, b) - Math.min(r, g, b) < 45) paper++;
  }
  return paper / (data.length / info.channels) > 0.35;
}

/** Text of a document image, or '' when OCR finds nothing that reads like words. */
export async function recognizeText(image: sharp.Sharp): Promise<string> {
  const png = await image
    .clone()
    .resize(OCR_SIDE, OCR_SIDE, { fit: 'inside', withoutEnlargement: true })
    .greyscale()
    .normalize()
    .png({ compressionLevel: 1 })
    .toBuffer();
  const { data } = await (await ocrWorker()).recognize(png);
  // Cards and forms are often all capitals; what matters is that tokens look like words.
  const wordLike = (data.text.match(/\b[A-Za-z]{3,}\b/g) ?? []).filter((w) => /[aeiouy]/i.test(w) && /^(?:[A-Z]+|[A-Z]?[a-z]+)$/.test(w));
  return data.confidence >= MIN_CONFIDENCE && wordLike.length >= MIN_WORDS ? data.text.replace(/\s+/g, ' ').trim() : '';
}
