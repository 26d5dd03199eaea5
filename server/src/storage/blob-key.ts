import type { ByteRange } from './blob-store.js';

/** Refused before touching storage: the key is not a plain URL-safe name. */
export class InvalidBlobKeyError extends Error {
  constructor(readonly key: string) {
    super(`Invalid storage key ${JSON.stringify(key.slice(0, 80))}`);
    this.name = 'InvalidBlobKeyError';
  }
}

// One optional namespace segment and a name, both from the base64url alphabet: no dots, no
// backslashes, no empty segments, so no key can ever name a path outside the store's root.
const KEY_PATTERN = /^(?:[A-Za-z0-9_-]{1,64}\/)?[A-Za-z0-9_-]{1,128}$/;

/** Every driver applies the same rule, so code that works on one works on the other. */
export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new InvalidBlobKeyError(key);
}

/** Listings skip anything else: no key could name it, so it is not the store's. */
export function isValidKey(key: string): boolean {
  return typeof key === 'string' && KEY_PATTERN.test(key);
}

export function assertValidRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${start}-${end}`);
  }
}
