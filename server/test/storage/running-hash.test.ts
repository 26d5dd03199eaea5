import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { HashPool } from '../../src/storage/hash-pool.js';
import type { ContentDigest } from '../../src/storage/content-digest.js';
import { RunningHashes } from '../../src/storage/running-hash.js';

const pool = new HashPool(1);
afterAll(() => pool.close());

async function feed(hashes: RunningHashes, pieces: Buffer[]): Promise<ContentDigest> {
  const hash = hashes.start();
  for (const piece of pieces) await hash.update(piece);
  return hash.digest();
}

describe('running hashes', () => {
  const pieces = Array.from({ length: 12 }, (_, i) => randomBytes(100_000 + i * 7919));
  const digestOf = (bytes: Buffer): ContentDigest => ({ sha256: createHash('sha256').update(bytes).digest('hex'), crc32: crc32(bytes) });
  const expected = digestOf(Buffer.concat(pieces));

  it('give the SHA-256 and CRC-32 of every piece fed, on the pool and on the calling thread alike', async () => {
    expect(await feed(new RunningHashes(pool), pieces)).toEqual(expected);
    expect(await feed(new RunningHashes(null), pieces)).toEqual(expected);
    expect(await feed(new RunningHashes(pool), [])).toEqual(digestOf(Buffer.alloc(0)));
  });

  it('copy what they are fed, so the caller may reuse its buffer at once', async () => {
    const buffer = Buffer.alloc(50_000);
    const hash = new RunningHashes(pool).start();
    const sent: Buffer[] = [];
    for (let i = 0; i < 6; i++) {
      buffer.fill(i);
      sent.push(Buffer.from(buffer));
      await hash.update(buffer);
    }
    expect(await hash.digest()).toEqual(digestOf(Buffer.concat(sent)));
  });

  it('take at most the allowed pool slots, free one when read or dropped, and refuse updates once dropped', async () => {
    const hashes = new RunningHashes(pool, 2);
    const a = hashes.start();
    const b = hashes.start();
    const c = hashes.start(); // beyond the cap: hashed on the calling thread, still right
    for (const h of [a, b, c]) await h.update(pieces[0]!);
    expect(await c.digest()).toEqual(digestOf(pieces[0]!));
    a.drop();
    await expect(a.update(pieces[1]!)).rejects.toThrow('dropped');
    await expect(a.digest()).rejects.toThrow('dropped');
    expect(await b.digest()).toEqual(digestOf(pieces[0]!));
    // Both pooled slots are free again.
    expect(await feed(hashes, pieces)).toEqual(expected);
    expect(await feed(hashes, pieces)).toEqual(expected);
  });
});
