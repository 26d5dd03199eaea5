import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cropContext, faceCropBox } from '../../src/people/face-scan.service.js';

describe("a face crop's seal", () => {
  const key = randomBytes(32);
  const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), randomBytes(5000)]);

  it('opens for its own face only, and only under the key that sealed it', () => {
    const sealed = faceCropBox(key).sealBytes(jpeg, cropContext('face-1'));
    expect(sealed.includes(jpeg.subarray(0, 64))).toBe(false);
    expect(faceCropBox(key).openBytes(sealed, cropContext('face-1'))?.equals(jpeg)).toBe(true);
    // Copied to another face's row, or read with another server's key: nothing.
    expect(faceCropBox(key).openBytes(sealed, cropContext('face-2'))).toBeNull();
    expect(faceCropBox(randomBytes(32)).openBytes(sealed, cropContext('face-1'))).toBeNull();
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 1]! ^= 1;
    expect(faceCropBox(key).openBytes(flipped, cropContext('face-1'))).toBeNull();
    expect(faceCropBox(key).openBytes(Buffer.alloc(10), cropContext('face-1'))).toBeNull();
  });
});
