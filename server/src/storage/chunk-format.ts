import type { ByteRange } from './blob-store.js';

/**
 * Stored layout of an encrypted object:
 *
 *   header  = "NMBE" | version u8 (1) | 3 zero bytes | chunk size u32 BE         (12 bytes)
 *   chunk i = AES-256-GCM(plaintext[i·C, (i+1)·C)) | 16-byte tag
 *
 * Every chunk is full except the last, which holds the rest (0 bytes only for an empty file).
 * Nonce = 4 zero bytes | i as u64 BE (unique because every file has its own key). AAD = header |
 * i as u64 BE | final flag u8, so reordered, dropped, truncated or appended chunks fail to open.
 */
export const HEADER_LENGTH = 12;
export const TAG_LENGTH = 16;
export const DEFAULT_CHUNK_SIZE = 64 * 1024;
export const MAX_CHUNK_SIZE = 16 * 1024 * 1024;
const MAGIC = Buffer.from('NMBE', 'latin1');
const VERSION = 1;

export function encodeHeader(chunkSize: number): Buffer {
  const header = Buffer.alloc(HEADER_LENGTH);
  MAGIC.copy(header, 0);
  header.writeUInt8(VERSION, 4);
  header.writeUInt32BE(chunkSize, 8);
  return header;
}

export function assertChunkSize(chunkSize: number): void {
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1 || chunkSize > MAX_CHUNK_SIZE) {
    throw new RangeError(`Chunk size must be 1 to ${MAX_CHUNK_SIZE} bytes`);
  }
}

export function nonceFor(index: number): Buffer {
  const nonce = Buffer.alloc(12);
  nonce.writeBigUInt64BE(BigInt(index), 4);
  return nonce;
}

export function aadFor(header: Buffer, index: number, isFinal: boolean): Buffer {
  const aad = Buffer.alloc(HEADER_LENGTH + 9);
  header.copy(aad, 0);
  aad.writeBigUInt64BE(BigInt(index), HEADER_LENGTH);
  aad.writeUInt8(isFinal ? 1 : 0, HEADER_LENGTH + 8);
  return aad;
}

/** Where a file's chunks lie, from its plaintext size and chunk size alone. */
export class ChunkLayout {
  readonly chunkCount: number;

  constructor(
    readonly chunkSize: number,
    readonly plaintextSize: number,
  ) {
    // An empty file still has one (empty, final) chunk, so deleting it is detected.
    this.chunkCount = Math.max(1, Math.ceil(plaintextSize / chunkSize));
  }

  get storedSize(): number {
    return HEADER_LENGTH + this.plaintextSize + this.chunkCount * TAG_LENGTH;
  }

  get finalIndex(): number {
    return this.chunkCount - 1;
  }

  plaintextLength(index: number): number {
    return index < this.finalIndex ? this.chunkSize : this.plaintextSize - this.finalIndex * this.chunkSize;
  }

  storedOffset(index: number): number {
    return HEADER_LENGTH + index * (this.chunkSize + TAG_LENGTH);
  }

  /** The chunks a plaintext range touches, and the stored bytes that hold them. */
  locate(range: ByteRange): { first: number; last: number; stored: ByteRange } {
    const first = Math.floor(range.start / this.chunkSize);
    const last = Math.floor(range.end / this.chunkSize);
    const end = this.storedOffset(last) + this.plaintextLength(last) + TAG_LENGTH - 1;
    return { first, last, stored: { start: this.storedOffset(first), end } };
  }
}
