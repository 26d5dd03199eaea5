import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import pLimit from 'p-limit';

const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

/**
 * scrypt runs on libuv's thread pool, which file reads and writes share: a flood of logins may
 * take two of its threads, never all of them.
 */
const hashing = pLimit(2);

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return hashing(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: 128 * options.N! * options.r! * 2 }, (err, key) =>
          err ? reject(err) : resolve(key),
        );
      }),
  );
}

/** How many password hashes are being computed or waiting right now. */
export function hashingLoad(): { active: number; pending: number } {
  return { active: hashing.activeCount, pending: hashing.pendingCount };
}

/** scrypt on libuv's thread pool; the format records its parameters so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  let actual: Buffer;
  try {
    actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  } catch {
    // A damaged stored hash (scrypt refuses its parameters) matches no password; it must not become a 500.
    return false;
  }
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash to verify against when the account does not exist, so timing does not reveal it. */
export const DUMMY_PASSWORD_HASH = await hashPassword(randomBytes(12).toString('base64'));
