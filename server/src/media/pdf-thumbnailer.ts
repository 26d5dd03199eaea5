import { fork } from 'node:child_process';
import { compiledWorker } from '../workers/pool.js';
import { MediaUnprocessableError } from './errors.js';
import { imageThumbnail, type EncodedImage } from './image-thumbnailer.js';
import type { RenderAnswer, RenderRequest } from './pdf-render-child.js';

/** Twice the thumbnail's width, so it stays sharp on high-density screens. */
const RENDER_SIDE = 600;
/** The largest page PDF allows (200 inches at 72 points each); beyond that a page is made up. */
const MAX_PAGE_POINTS = 14_400;
/** A scanned page at 600 dpi is about 35 MP. */
const MAX_IMAGE_PIXELS = 64_000_000;
/** pdf.js's objects live on this heap; images and the canvas are bounded by the limits above. */
const HEAP_MB = 256;
const TIMEOUT_MS = 30_000;

export function isPdf(contentType: string): boolean {
  return contentType === 'application/pdf';
}

export interface PdfThumbnailOptions {
  timeoutMs?: number;
  heapMb?: number;
}

function isAnswer(value: unknown): value is RenderAnswer {
  const v = value as { png?: unknown; error?: unknown } | null;
  return typeof v?.error === 'string' || v?.png instanceof Uint8Array;
}

/**
 * Draws page 1 of a PDF in a process of its own (bounded heap, killed past its deadline), so a
 * hostile PDF (deep nesting, enormous images, endless content) ends only that process. Each PDF
 * gets a new process: nothing one file did can stay behind for the next.
 */
export function renderFirstPage(bytes: Uint8Array, options: PdfThumbnailOptions = {}): Promise<Buffer> {
  const child = fork(compiledWorker('media/pdf-render-child.js'), [], {
    execArgv: [`--max-old-space-size=${options.heapMb ?? HEAP_MB}`, '--stack-size=984'],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    env: {},
  });
  return new Promise<Buffer>((resolve, reject) => {
    let answered = false;
    const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(`Drawing the PDF took longer than ${Math.round(timeoutMs / 1000)} s`);
    }, timeoutMs);
    function fail(message: string) {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      reject(new MediaUnprocessableError(message));
    }
    child.on('error', (err) => {
      child.kill('SIGKILL');
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      // Not the PDF's fault (the process could not start): the job retries.
      reject(err);
    });
    child.once('message', (message: unknown) => {
      if (!isAnswer(message)) return fail('The PDF renderer answered nonsense');
      if ('error' in message) return fail(message.error);
      answered = true;
      clearTimeout(timer);
      resolve(Buffer.from(message.png.buffer, message.png.byteOffset, message.png.byteLength));
    });
    child.once('exit', (code, signal) => fail(`The PDF renderer ended while drawing (${signal ?? `exit code ${code}`})`));
    const request: RenderRequest = { bytes, maxSide: RENDER_SIDE, maxPagePoints: MAX_PAGE_POINTS, maxImagePixels: MAX_IMAGE_PIXELS };
    child.send(request);
  });
}

/** The first page of a PDF as a thumbnail like a photo's (about 300 px wide, WebP). */
export async function pdfThumbnail(bytes: Uint8Array, options?: PdfThumbnailOptions): Promise<EncodedImage> {
  return imageThumbnail(await renderFirstPage(bytes, options));
}
