import { describe, expect, it } from 'vitest';
import { collectStartupGarbage } from '../../src/startup-gc.js';

describe('the collection after start', () => {
  it('compacts for that one collection only, when gc is exposed', () => {
    const calls: string[] = [];
    expect(
      collectStartupGarbage(
        () => calls.push('gc'),
        (flags) => calls.push(flags),
      ),
    ).toBe(true);
    expect(calls).toEqual(['--compact-on-every-full-gc', 'gc', '--no-compact-on-every-full-gc']);
  });

  it('turns compaction off again when the collection throws', () => {
    const calls: string[] = [];
    const failing = () => {
      throw new Error('no');
    };
    expect(() => collectStartupGarbage(failing, (flags) => calls.push(flags))).toThrow('no');
    expect(calls).toEqual(['--compact-on-every-full-gc', '--no-compact-on-every-full-gc']);
  });

  it('does nothing without an exposed gc', () => {
    const calls: string[] = [];
    expect(collectStartupGarbage(undefined, (flags) => calls.push(flags))).toBe(false);
    expect(calls).toEqual([]);
  });
});
