/** Name of the Web Lock that serialises token refreshes across the tabs of this browser. */
export const REFRESH_LOCK = 'nimbus-token-refresh';

/**
 * Runs `refresh` so that at most one refresh is in flight per browser: callers in this tab share one
 * promise, and a tab that finds another tab refreshing waits for it instead of presenting the same
 * refresh token again (the server revokes a session whose rotated-away token comes back).
 */
export function createSerializedRefresher(refresh: () => Promise<void>): () => Promise<void> {
  let inFlight: Promise<void> | null = null;

  async function acrossTabs(): Promise<void> {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    if (!locks) return refresh();
    const ranHere = await locks.request(REFRESH_LOCK, { ifAvailable: true }, async (lock) => {
      if (!lock) return false;
      await refresh();
      return true;
    });
    // Another tab held the lock: its refresh updated the shared cookies once it let go.
    if (!ranHere) await locks.request(REFRESH_LOCK, () => undefined);
  }

  return () => {
    inFlight ??= acrossTabs().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}
