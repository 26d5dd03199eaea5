import { setFlagsFromString } from 'node:v8';

/**
 * How long after it listens the server collects. V8 gives back the young generation the start grew
 * only at a collection that finds allocation low over its last 5 s window: collected at once, the
 * server held 99–103 MiB until the memory reducer ran 10–15 s later; collected after 5 s at rest,
 * 91–92 MiB from then on (2026-11-28, `npm run bench memory`).
 */
export const STARTUP_COLLECTION_DELAY_MS = 5_500;

/** Runs `collectStartupGarbage` once, `delayMs` after now, without keeping the process alive for it. */
export function scheduleStartupCollection(delayMs = STARTUP_COLLECTION_DELAY_MS, collect: () => unknown = collectStartupGarbage): void {
  setTimeout(collect, delayMs).unref();
}

/**
 * Starting the server leaves 10–15 MB of garbage spread over the old generation: module
 * sources read, schemas and routes built, migrations run. Under the old-generation floor `npm start`
 * sets (scripts/server-runtime.mjs) V8 collects it only when its memory reducer runs, 15–20 s after
 * start, and a plain collection frees the objects but keeps their pages resident. Where Node exposes
 * `gc` (`--expose-gc`), this runs one compacting collection, which hands those pages back at once;
 * compaction is on for that collection only, so later ones keep V8's own heuristics.
 */
export function collectStartupGarbage(
  gc: (() => void) | undefined = (globalThis as { gc?: () => void }).gc,
  setFlags: (flags: string) => void = setFlagsFromString,
): boolean {
  if (typeof gc !== 'function') return false;
  setFlags('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    setFlags('--no-compact-on-every-full-gc');
  }
  return true;
}
