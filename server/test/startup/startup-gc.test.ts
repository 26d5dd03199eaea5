import { describe, expect, it, vi } from 'vitest';
import { collectStartupGarbage, scheduleStartupCollection, STARTUP_COLLECTION_DELAY_MS } from '../../src/startup-gc.js';

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

  it('is scheduled once, after the server has been at rest long enough for V8 to shrink its young generation', () => {
    vi.useFakeTimers();
    try {
      const collect = vi.fn();
      scheduleStartupCollection(undefined, collect);
      vi.advanceTimersByTime(STARTUP_COLLECTION_DELAY_MS - 1);
      expect(collect).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(collect).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(60_000);
      expect(collect).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
