import { beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD_HASH_COST,
  dummyPasswordHash,
  hashPassword,
  setPasswordHashCost,
  verifyPassword,
} from '../src/security/password.js';

describe('password hashing (scrypt)', () => {
  // Other files of this worker may have built an app with the suite's lower cost.
  beforeEach(() => setPasswordHashCost(DEFAULT_PASSWORD_HASH_COST));

  it('verifies the right password and refuses others', async () => {
    const hash = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horsE', hash)).toBe(false);
    expect(await verifyPassword('correct horse ', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('records scheme and parameters, salts every hash and never contains the password', async () => {
    const [a, b] = await Promise.all([hashPassword('same password'), hashPassword('same password')]);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('same password');
  });

  it('verifies with the parameters stored in the hash, so they can be raised later', async () => {
    const hash = await hashPassword('secret1');
    const [, , , , salt] = hash.split('$');
    const { scrypt } = await import('node:crypto');
    const key = await new Promise<Buffer>((resolve, reject) =>
      scrypt('secret1', Buffer.from(salt!, 'base64'), 32, { N: 1024, r: 8, p: 1 }, (err, k) => (err ? reject(err) : resolve(k))),
    );
    expect(await verifyPassword('secret1', `scrypt$1024$8$1$${salt}$${key.toString('base64')}`)).toBe(true);
  });

  it('treats unicode passwords by their normal form', async () => {
    const hash = await hashPassword('caf\u00e9 🔑');
    expect(await verifyPassword('cafe\u0301 🔑', hash)).toBe(true);
    expect(await verifyPassword('cafe 🔑', hash)).toBe(false);
  });

  it.each(['', 'plain', 'bcrypt$10$abc', 'scrypt$$8$1$c2FsdA==$a2V5', 'scrypt$abc$8$1$c2FsdA==$a2V5', 'scrypt$3$8$1$c2FsdA==$a2V5'])(
    'refuses a malformed stored hash %j without throwing',
    async (stored) => {
      expect(await verifyPassword('secret1', stored)).toBe(false);
    },
  );

  it('keeps a dummy hash for unknown accounts that no password matches', async () => {
    const dummy = await dummyPasswordHash();
    expect(dummy).toMatch(/^scrypt\$/);
    expect(await verifyPassword('', dummy)).toBe(false);
    expect(await verifyPassword('secret1', dummy)).toBe(false);
  });

  it('makes new hashes at the configured cost and still verifies older ones made at another', async () => {
    const before = await hashPassword('secret1');
    setPasswordHashCost(11);
    try {
      const after = await hashPassword('secret1');
      expect(after).toMatch(/^scrypt\$2048\$8\$1\$/);
      expect(await dummyPasswordHash()).toMatch(/^scrypt\$2048\$/);
      expect(await verifyPassword('secret1', before)).toBe(true);
      expect(await verifyPassword('secret1', after)).toBe(true);
    } finally {
      setPasswordHashCost(DEFAULT_PASSWORD_HASH_COST);
    }
    expect(await hashPassword('secret1')).toMatch(/^scrypt\$32768\$/);
    expect(() => setPasswordHashCost(9)).toThrow(RangeError);
    expect(() => setPasswordHashCost(21)).toThrow(RangeError);
    expect(() => setPasswordHashCost(12.5)).toThrow(RangeError);
  });
});
