import { createHash } from 'node:crypto';
import { crc32 } from './crc32.js';

/**
 * What a file's plaintext is known by once stored: its SHA-256 (the entity tag, the integrity
 * checks) and its CRC-32, which a zip must write for every entry and would otherwise compute
 * each time the file is zipped.
 */
export interface ContentDigest {
  /** Hex. */
  sha256: string;
  /** Unsigned 32-bit. */
  crc32: number;
}

/** Both digests of bytes fed in order, in one pass. */
export class ContentHasher {
  private readonly hash = createHash('sha256');
  private crc = 0;

  update(bytes: Uint8Array): void {
    this.hash.update(bytes);
    this.crc = crc32(bytes, this.crc);
  }

  /** The digests of everything fed; the hasher is spent. */
  digest(): ContentDigest {
    return { sha256: this.hash.digest('hex'), crc32: this.crc };
  }
}
