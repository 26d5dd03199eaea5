import { setFlagsFromString } from 'node:v8';

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
