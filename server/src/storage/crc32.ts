import { createRequire } from 'node:module';
import { crc32 as zlibCrc32 } from 'node:zlib';

type Crc32 = (data: Uint8Array, previous?: number) => number;

/**
 * The native module's CRC-32 uses the CPU's carry-less multiply and runs at two to three times
 * zlib's speed: every upload pays for it beside its SHA-256, and a zip for each file stored before
 * uploads kept one. It ships prebuilt for the common platforms only, so elsewhere zlib's, which
 * gives the same values, stands in.
 */
function nativeCrc32(): Crc32 | undefined {
  try {
    return (createRequire(import.meta.url)('@node-rs/crc32') as { crc32: Crc32 }).crc32;
  } catch {
    return undefined;
  }
}

let chosen: Crc32 | undefined;

/** Loaded with its first use, not at start, so a server at rest keeps its memory. */
export const crc32: Crc32 = (data, previous) => {
  chosen ??= nativeCrc32() ?? zlibCrc32;
  return chosen(data, previous);
};
