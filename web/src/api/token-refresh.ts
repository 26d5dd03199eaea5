/** Name of the Web Lock that serialises token refreshes across the tabs of this browser. */
export const REFRESH_LOCK = 'nimbus-token-refresh';

/**
 * Runs `refresh` so that at most one refresh is in flight per browser: callers in this tab share one
 * promise, and a tab that finds another tab refreshing waits for it instead of presenting the same
 * refresh token again (the server revokes a session whose rotated-away token comes back).
 */
export function createSerializedRefresher(refresh: () => Promise<void>, lease: LeaseStore = browserLease()): () => Promise<void> {
  let inFlight: Promise<void> | null = null;

  async function acrossTabs(): Promise<void> {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    if (!locks) return underLease(refresh, lease);
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

/** Where the fallback lease lives: localStorage, shared by the tabs of one origin. */
export interface LeaseStore {
  get(): string | null;
  set(value: string): void;
  remove(): void;
}

const LEASE_MS = 10_000;
const LEASE_POLL_MS = 100;

function browserLease(): LeaseStore {
  const storage = typeof localStorage === 'undefined' ? null : localStorage;
  return {
    get: () => storage?.getItem(REFRESH_LOCK) ?? null,
    set: (value) => storage?.setItem(REFRESH_LOCK, value),
    remove: () => storage?.removeItem(REFRESH_LOCK),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function liveHolder(value: string | null, now: number): string | null {
  const [holder, until] = (value ?? '').split('|');
  return holder && Number(until) > now ? holder : null;
}

/**
 * Where Web Locks are missing (plain-http origins such as http://nas:3000), a lease in localStorage
 * stands in: a tab that finds no live lease writes its own and refreshes; a tab that finds another's
 * waits for it to go instead. (Two tabs writing in the same instant both refresh: the server answers
 * a token presented twice within seconds with the same pair, so that costs nothing.)
 */
async function underLease(refresh: () => Promise<void>, lease: LeaseStore): Promise<void> {
  const me = Math.random().toString(36).slice(2);
  if (!liveHolder(lease.get(), Date.now())) {
    lease.set(`${me}|${Date.now() + LEASE_MS}`);
    try {
      return await refresh();
    } finally {
      if (liveHolder(lease.get(), Date.now()) === me) lease.remove();
    }
  }
  // Another tab is refreshing; its new cookies are shared once its lease is gone.
  const deadline = Date.now() + LEASE_MS;
  while (liveHolder(lease.get(), Date.now()) && Date.now() < deadline) await sleep(LEASE_POLL_MS);
}
