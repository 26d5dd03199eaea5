import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'v1.';
const IV_LENGTH = 12;
const TAG_LENGTH = 16;

/**
 * Small secrets kept in the database (two-factor secrets), sealed with AES-256-GCM under a key
 * derived from the server's encryption key for this purpose alone. The context (e.g. the account
 * id) is authenticated with the text, so a sealed value copied to another row does not open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(masterKey: Buffer, purpose: string) {
    if (masterKey.length !== 32) throw new RangeError('The encryption key must be 32 bytes');
    this.key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `nimbus:secret-box:${purpose}`, 32));
  }

  seal(plain: string, context: string): string {
    return PREFIX + this.sealBytes(Buffer.from(plain, 'utf8'), context).toString('base64url');
  }

  /** The text, or null when the value is malformed, for another context, or sealed by another key. */
  open(sealed: string, context: string): string | null {
    if (!sealed.startsWith(PREFIX)) return null;
    return this.openBytes(Buffer.from(sealed.slice(PREFIX.length), 'base64url'), context)?.toString('utf8') ?? null;
  }

  /** Binary values (small images) sealed the same way, without the text encoding: IV, tag, ciphertext. */
  sealBytes(plain: Buffer, context: string): Buffer {
    const iv = randomBytes(IV_LENGTH);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(context));
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
  }

  openBytes(raw: Buffer, context: string): Buffer | null {
    if (raw.length <= IV_LENGTH + TAG_LENGTH) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_LENGTH)).setAAD(Buffer.from(context));
      decipher.setAuthTag(raw.subarray(IV_LENGTH, IV_LENGTH + TAG_LENGTH));
      return Buffer.concat([decipher.update(raw.subarray(IV_LENGTH + TAG_LENGTH)), decipher.final()]);
    } catch {
      return null;
    }
  }
}
