import { createHash, randomBytes } from 'node:crypto';

/** Opaque, URL-safe identifier (128 random bits). */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}

/** A high-entropy secret for links and tokens (256 random bits). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as this hash, so a database leak reveals no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
