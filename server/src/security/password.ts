import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import pLimit from 'p-limit';

/** log2 of scrypt's N for new hashes: 15 (32 MiB, about 0.1-0.2 s of a core) unless the operator sets it. */
export const DEFAULT_PASSWORD_HASH_COST = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
let cost: number = DEFAULT_PASSWORD_HASH_COST;

/**
 * Sets the cost of hashes made from now on. Stored hashes keep the parameters they were made
 * with, so changing it never locks anyone out.
 */
export function setPasswordHashCost(logN: number): void {
  if (!Number.isInteger(logN) || logN < 10 || logN > 20) throw new RangeError(`password hash cost must be 10-20, not ${logN}`);
  cost = logN;
}

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
export function hashingLoad(): { active: number; pending: number; admitted: number } {
  return { active: hashing.activeCount, pending: hashing.pendingCount, admitted: admittedTotal };
}

/**
 * Places in the hashing queue for password checks that anyone may send (sign-in, a share link's
 * password): a client (an address group) may hold two at a time, strangers 64 in all. Past that the
 * caller answers "try again" at once rather than queueing, so a flood from one client delays no one
 * else, and a flood from many delays a newcomer by at most 64 hashes. Counted per process, like the
 * queue they bound.
 */
export const MAX_HASHES_PER_CLIENT = 2;
export const MAX_ADMITTED_HASHES = 64;
const admittedPerClient = new Map<string, number>();
let admittedTotal = 0;

/** A place taken by `admitHashing`, held from before the check until it is over, however it ended. */
export interface HashingPlace {
  /**
   * More places are taken than strangers get, this one included: a stranger gives it back; a device
   * recognised as the account's own keeps it and waits its turn behind them.
   */
  readonly crowded: boolean;
  release(): void;
}

/** Takes a place for one password check of `client`, or answers null when the client holds two already. */
export function admitHashing(client: string): HashingPlace | null {
  const held = admittedPerClient.get(client) ?? 0;
  if (held >= MAX_HASHES_PER_CLIENT) return null;
  admittedPerClient.set(client, held + 1);
  admittedTotal += 1;
  let released = false;
  return {
    get crowded() {
      return admittedTotal > MAX_ADMITTED_HASHES;
    },
    release() {
      if (released) return;
      released = true;
      admittedTotal -= 1;
      const left = (admittedPerClient.get(client) ?? 1) - 1;
      if (left > 0) admittedPerClient.set(client, left);
      else admittedPerClient.delete(client);
    },
  };
}

/** scrypt on libuv's thread pool; the format records its parameters so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** cost;
  const key = await derive(password, salt, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
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

const dummies = new Map<number, Promise<string>>();

/** A hash of the current cost to verify against when the account does not exist, so timing does not reveal it. */
export function dummyPasswordHash(): Promise<string> {
  let dummy = dummies.get(cost);
  if (!dummy) {
    dummy = hashPassword(randomBytes(12).toString('base64'));
    dummies.set(cost, dummy);
  }
  return dummy;
}
