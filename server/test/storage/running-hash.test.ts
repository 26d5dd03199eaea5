import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { sealChunks, storedOffsetOf } from '../../src/storage/chunk-cipher.js';
import { encodeHeader, TAG_LENGTH } from '../../src/storage/chunk-format.js';
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

  it('seal batches laid out as stored, in the order given, to the bytes sealed record by record, and hash them', async () => {
    const chunkSize = 1000;
    const seal = { key: randomBytes(32), header: encodeHeader(chunkSize), chunkSize };
    const plaintexts = [randomBytes(4 * chunkSize), randomBytes(4 * chunkSize), randomBytes(2 * chunkSize + 17)];
    for (const hashes of [new RunningHashes(pool), new RunningHashes(null)]) {
      const hash = hashes.start();
      let index = 0;
      // All at once, as a piece keeps more than one batch in flight.
      const sealing = plaintexts.map((plaintext, i) => {
        const batch = Buffer.allocUnsafeSlow(storedOffsetOf(chunkSize, plaintext.length) + TAG_LENGTH);
        for (let at = 0; at < plaintext.length; at += chunkSize) plaintext.copy(batch, storedOffsetOf(chunkSize, at), at, at + chunkSize);
        const isFinal = i === plaintexts.length - 1;
        const sealed = hash.seal(seal, index, batch, plaintext.length, isFinal);
        const expected = Buffer.concat(sealChunks(seal, index, plaintext, isFinal));
        index += plaintext.length / chunkSize;
        return sealed.then(({ batch: back, stored }) => expect(back.subarray(0, stored).equals(expected)).toBe(true));
      });
      await Promise.all(sealing);
      expect(await hash.digest()).toEqual(digestOf(Buffer.concat(plaintexts)));
    }
  });

  it('fail the batches still being sealed when dropped', async () => {
    const hash = new RunningHashes(pool).start();
    const seal = { key: randomBytes(32), header: encodeHeader(1000), chunkSize: 1000 };
    const sealing = hash.seal(seal, 0, Buffer.allocUnsafeSlow(4 * 1016), 4000, false);
    sealing.catch(() => undefined);
    // Sent to the worker by now, not yet answered.
    for (let i = 0; i < 5; i++) await Promise.resolve();
    hash.drop();
    await expect(sealing).rejects.toThrow('dropped');
  });
});
