import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A file's data key, sealed by the master key with AES-256-GCM:
 * "v1." + base64url(iv 12 | tag 16 | ciphertext of (chunk size u32 BE | data key 32)).
 * The chunk size travels with the key so a range read can locate chunks without first
 * fetching the stored header, and it is authenticated with the key.
 */
export interface DataKey {
  key: Buffer;
  chunkSize: number;
}

const PREFIX = 'v1.';
const AAD = Buffer.from('nimbus:data-key:v1');
const IV_LENGTH = 12;
const TAG_LENGTH = 16;
const SEALED_LENGTH = 4 + 32;

export function assertMasterKey(masterKey: Buffer): void {
  if (!Buffer.isBuffer(masterKey) || masterKey.length !== 32) throw new RangeError('The master key must be 32 bytes');
}

export function wrapDataKey(masterKey: Buffer, dataKey: DataKey): string {
  const iv = randomBytes(IV_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv).setAAD(AAD);
  const plain = Buffer.alloc(SEALED_LENGTH);
  plain.writeUInt32BE(dataKey.chunkSize, 0);
  dataKey.key.copy(plain, 4);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The data key, or null when the wrapped key is malformed or not sealed by this master key. */
export function unwrapDataKey(masterKey: Buffer, wrapped: string): DataKey | null {
  if (typeof wrapped !== 'string' || !wrapped.startsWith(PREFIX)) return null;
  const raw = Buffer.from(wrapped.slice(PREFIX.length), 'base64url');
  if (raw.length !== IV_LENGTH + TAG_LENGTH + SEALED_LENGTH) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', masterKey, raw.subarray(0, IV_LENGTH)).setAAD(AAD);
    decipher.setAuthTag(raw.subarray(IV_LENGTH, IV_LENGTH + TAG_LENGTH));
    const plain = Buffer.concat([decipher.update(raw.subarray(IV_LENGTH + TAG_LENGTH)), decipher.final()]);
    return { chunkSize: plain.readUInt32BE(0), key: plain.subarray(4) };
  } catch {
    return null;
  }
}
