import { randomBytes } from 'node:crypto';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../src/storage/crc32.js';

describe('crc32', () => {
  it('gives zlib’s values, whole and carried on across pieces', () => {
    const data = randomBytes(300_001);
    expect(crc32(Buffer.alloc(0))).toBe(0);
    expect(crc32(Buffer.from('hello'))).toBe(zlibCrc32('hello'));
    const carried = [data.subarray(0, 1), data.subarray(1, 65_537), data.subarray(65_537)].reduce((crc, piece) => crc32(piece, crc), 0);
    expect(carried).toBe(zlibCrc32(data));
  });
});
