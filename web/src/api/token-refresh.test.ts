import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSerializedRefresher, REFRESH_LOCK } from './token-refresh';

type LockCallback = (lock: { name: string } | null) => unknown;

/** A Web Locks stand-in where another tab may already hold the lock. */
function fakeLocks(heldElsewhere: Promise<void> | null) {
  const calls: string[] = [];
  const locks = {
    request: vi.fn(async (name: string, optionsOrCallback: object | LockCallback, maybeCallback?: LockCallback) => {
      const callback = (typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback) as LockCallback;
      const ifAvailable = typeof optionsOrCallback === 'object' && 'ifAvailable' in optionsOrCallback;
      calls.push(ifAvailable ? 'ifAvailable' : 'wait');
      if (heldElsewhere && ifAvailable) return callback(null);
      if (heldElsewhere) await heldElsewhere;
      return callback({ name });
    }),
  };
  return { locks, calls };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createSerializedRefresher', () => {
  it('runs one refresh for concurrent callers in a tab', async () => {
    const refresh = vi.fn(() => Promise.resolve());
    const run = createSerializedRefresher(refresh);
    await Promise.all([run(), run(), run()]);
    expect(refresh).toHaveBeenCalledTimes(1);
    await run();
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('refreshes under the cross-tab lock when it is free', async () => {
    const { locks } = fakeLocks(null);
    vi.stubGlobal('navigator', { locks });
    const refresh = vi.fn(() => Promise.resolve());
    await createSerializedRefresher(refresh)();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(locks.request.mock.calls[0]?.[0]).toBe(REFRESH_LOCK);
  });

  it('waits for another tab that is refreshing instead of presenting the same token again', async () => {
    let finishOtherTab: () => void = () => undefined;
    const otherTab = new Promise<void>((resolve) => {
      finishOtherTab = resolve;
    });
    const { locks, calls } = fakeLocks(otherTab);
    vi.stubGlobal('navigator', { locks });
    const refresh = vi.fn(() => Promise.resolve());
    let done = false;
    const pending = createSerializedRefresher(refresh)().then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    finishOtherTab();
    await pending;
    expect(refresh).not.toHaveBeenCalled();
    expect(calls).toEqual(['ifAvailable', 'wait']);
  });

  it('passes a failed refresh on to every caller', async () => {
    const run = createSerializedRefresher(() => Promise.reject(new Error('401')));
    await expect(Promise.all([run(), run()])).rejects.toThrow('401');
  });
});

describe('without Web Locks (plain-http origins)', () => {
  /** localStorage shared by several tabs of one origin. */
  function sharedStorage() {
    let value: string | null = null;
    return { get: () => value, set: (v: string) => void (value = v), remove: () => void (value = null) };
  }

  it('lets only one of two tabs refresh at once; the other waits for it', async () => {
    vi.stubGlobal('navigator', {});
    const storage = sharedStorage();
    let refreshes = 0;
    let release: () => void = () => undefined;
    const slow = () => {
      refreshes++;
      return new Promise<void>((resolve) => (release = resolve));
    };
    vi.useFakeTimers();
    try {
      const tabA = createSerializedRefresher(slow, storage);
      const tabB = createSerializedRefresher(slow, storage);
      const a = tabA();
      const b = tabB();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(refreshes).toBe(1);
      release();
      await vi.advanceTimersByTimeAsync(1_000);
      await Promise.all([a, b]);
    } finally {
      vi.useRealTimers();
    }
    expect(refreshes).toBe(1);
    expect(storage.get()).toBeNull();
  });

  it('takes over a lease its holder never gave back once it expires', async () => {
    vi.stubGlobal('navigator', {});
    const storage = sharedStorage();
    storage.set(`gone|${Date.now() - 1}`);
    const refresh = vi.fn(async () => undefined);
    await createSerializedRefresher(refresh, storage)();
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});
