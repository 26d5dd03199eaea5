import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

type RenderCanvas = Parameters<PDFPageProxy['render']>[0]['canvas'];

/**
 * The process that draws the first page of one PDF (see pdf-thumbnailer.ts): it gets the PDF's
 * bytes and the size to draw at, answers with a PNG or the reason it cannot, and exits.
 */

export interface RenderRequest {
  bytes: Uint8Array;
  /** The longest side of the drawing, in pixels. */
  maxSide: number;
  /** Pages larger than this (in points, either side) are refused rather than drawn small. */
  maxPagePoints: number;
  /** Embedded images with more pixels are not decoded. */
  maxImagePixels: number;
}

export type RenderAnswer = { png: Uint8Array; width: number; height: number } | { error: string };

const standardFonts = `${path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/standard_fonts/`;

async function render(request: RenderRequest): Promise<RenderAnswer> {
  const doc = await getDocument({
    // A Buffer arrives as one; pdf.js takes only a plain Uint8Array.
    data: new Uint8Array(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength),
    isEvalSupported: false,
    useSystemFonts: false,
    standardFontDataUrl: standardFonts,
    maxImageSize: request.maxImagePixels,
    verbosity: 0,
  }).promise;
  try {
    if (doc.numPages < 1) return { error: 'The PDF has no pages' };
    const page = await doc.getPage(1);
    const page1 = page.getViewport({ scale: 1 });
    if (!(page1.width > 0 && page1.height > 0)) return { error: 'The first page has no size' };
    if (page1.width > request.maxPagePoints || page1.height > request.maxPagePoints)
      return { error: `The first page is too large (${Math.round(page1.width)} × ${Math.round(page1.height)} pt)` };
    const viewport = page.getViewport({ scale: request.maxSide / Math.max(page1.width, page1.height) });
    const canvas = createCanvas(Math.max(1, Math.ceil(viewport.width)), Math.max(1, Math.ceil(viewport.height)));
    const context = canvas.getContext('2d');
    // Pages are paper: what a PDF leaves undrawn shows white, as in every viewer.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas: canvas as unknown as RenderCanvas, viewport }).promise;
    const png = await canvas.encode('png');
    return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width: canvas.width, height: canvas.height };
  } finally {
    await doc.destroy();
  }
}

process.once('message', (request: RenderRequest) => {
  render(request)
    .catch((err: unknown): RenderAnswer => ({ error: `Cannot read the PDF: ${err instanceof Error ? err.message : String(err)}` }))
    .then((answer) => process.send?.(answer, () => process.exit(0)));
});
process.on('disconnect', () => process.exit(0));
