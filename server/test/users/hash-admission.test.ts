import { describe, expect, it } from 'vitest';
import { MAX_ADMITTED_HASHES, MAX_HASHES_PER_CLIENT, admitHashing, hashingLoad, type HashingPlace } from '../../src/security/password.js';

describe('places in the password-hashing queue', () => {
  it('gives one client two at a time, and a place again once one is released', () => {
    expect(MAX_HASHES_PER_CLIENT).toBe(2);
    const held = [admitHashing('203.0.113.1'), admitHashing('203.0.113.1')];
    expect(held.every(Boolean)).toBe(true);
    expect(admitHashing('203.0.113.1')).toBeNull();
    const other = admitHashing('203.0.113.2');
    expect(other).not.toBeNull();
    // Released twice, a place frees one slot only.
    held[0]!.release();
    held[0]!.release();
    const again = admitHashing('203.0.113.1');
    expect(again).not.toBeNull();
    expect(admitHashing('203.0.113.1')).toBeNull();
    for (const place of [held[1], other, again]) place!.release();
    expect(hashingLoad().admitted).toBe(0);
  });

  it('tells the 65th place at once that strangers have no more room', () => {
    const held: HashingPlace[] = [];
    for (let i = 0; i < MAX_ADMITTED_HASHES; i++) held.push(admitHashing(`2001:db8:${i.toString(16)}::/64`)!);
    expect(held.every((p) => p && !p.crowded)).toBe(true);
    const late = admitHashing('198.51.100.1')!;
    expect(late.crowded).toBe(true);
    held.pop()!.release();
    expect(late.crowded).toBe(false);
    for (const place of [...held, late]) place.release();
    expect(hashingLoad().admitted).toBe(0);
  });
});
