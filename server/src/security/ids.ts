import { createHash, randomBytes } from 'node:crypto';

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 25;

/**
 * Opaque, URL-safe identifier (~129 random bits). Lower-case letters and digits only, so ids
 * order the same under every database collation; keyset paging breaks ties by id.
 */
export function newId(): string {
  const bytes = randomBytes(ID_LENGTH);
  let id = '';
  // 256 % 36 leaves a bias of under 1 %: irrelevant for uniqueness at this length.
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

/** A high-entropy secret for links and tokens (256 random bits). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored only as this hash, so a database leak reveals no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
