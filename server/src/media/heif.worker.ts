import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Piscina } from 'piscina';

/** What the main thread asks: decode the primary image of these HEIF bytes, if it is small enough. */
export interface HeifTask {
  data: Uint8Array;
  maxPixels: number;
}

/** Upright RGBA pixels of the primary image (libheif has applied its rotation, mirror and crop). */
export type HeifResult = { ok: true; width: number; height: number; alpha: boolean; rgba: Uint8Array } | { ok: false; error: string };

interface Display {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

interface HeifImage {
  get_width(): number;
  get_height(): number;
  is_primary(): boolean;
  has_alpha_channel(): boolean;
  display(target: Display, done: (result: Display | null) => void): void;
  free(): void;
}

interface LibHeif {
  HeifDecoder: new () => { decoder: unknown; decode(data: Uint8Array): HeifImage[] };
  heif_context_free(context: unknown): void;
}

let loaded: LibHeif | null = null;

/**
 * libheif-js reports why it failed with console.log, which in this thread would write past the
 * server's structured log; the last report is kept to go back with the task's result instead.
 */
let complaint = '';
console.log = (...args: unknown[]): void => {
  const reasons = args.map((arg) =>
    arg && typeof arg === 'object' && 'message' in arg ? String(arg.message) : typeof arg === 'string' ? arg : '',
  );
  complaint = reasons.filter(Boolean).join(': ').trim().slice(0, 300);
};

const failure = (error: string): HeifResult => ({ ok: false, error: complaint ? `${error} (${complaint})` : error });

/** The WebAssembly build of libheif with its HEVC decoder (libde265), loaded once per thread. */
function libheif(): LibHeif {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    const wasmBinary = readFileSync(require.resolve('libheif-js/libheif-wasm/libheif.wasm'));
    const factory = require('libheif-js/libheif-wasm/libheif.js') as (options: { wasmBinary: Buffer }) => LibHeif;
    loaded = factory({ wasmBinary });
  }
  return loaded;
}

/** The result with its pixels moved to the main thread rather than copied (tens of MB for a phone photo). */
function moved(result: HeifResult & { ok: true }): ReturnType<typeof Piscina.move> {
  // Piscina's own form of a value with what to transfer beside it; its symbols are typed as unique.
  const transferable = { [Piscina.transferableSymbol]: result.rgba.buffer, [Piscina.valueSymbol]: result };
  return Piscina.move(transferable as unknown as Parameters<typeof Piscina.move>[0]);
}

export default async function decodeHeif(task: HeifTask): Promise<HeifResult | ReturnType<typeof Piscina.move>> {
  const heif = libheif();
  const decoder = new heif.HeifDecoder();
  let images: HeifImage[] = [];
  complaint = '';
  try {
    images = decoder.decode(task.data);
    // A burst or an image sequence has several top-level images; the primary one is the photo.
    const image = images.find((candidate) => candidate.is_primary()) ?? images[0];
    if (!image) return failure('no image in the HEIF container, or one it cannot read');
    const width = image.get_width();
    const height = image.get_height();
    // The size comes from the header (ispe and transforms), so a bomb is refused before any pixel is decoded.
    if (!(width > 0 && height > 0)) return { ok: false, error: 'the HEIF image has no size' };
    if (width * height > task.maxPixels) return { ok: false, error: `Input image exceeds pixel limit (${width}x${height})` };
    const target = { data: new Uint8ClampedArray(width * height * 4), width, height };
    const shown = await new Promise<Display | null>((resolve) => image.display(target, resolve));
    if (!shown) return failure('the HEIF image cannot be decoded');
    const rgba = new Uint8Array(shown.data.buffer, shown.data.byteOffset, shown.data.byteLength);
    return moved({ ok: true, width, height, alpha: image.has_alpha_channel(), rgba });
  } finally {
    for (const image of images) image.free();
    if (decoder.decoder) heif.heif_context_free(decoder.decoder);
  }
}
