import { createRequire } from 'node:module';
import type Sharp from 'sharp';

let loaded: typeof Sharp | null = null;

/**
 * sharp with libvips (about 12 MB resident) is loaded by the first image that needs it, not at
 * start: a server that is only listing and serving files never pays for it.
 */
export function sharp(): typeof Sharp {
  if (!loaded) {
    loaded = createRequire(import.meta.url)('sharp') as typeof Sharp;
    // Thumbnails and analyses read each image once: libvips' operation cache only holds memory.
    loaded.cache(false);
  }
  return loaded;
}
