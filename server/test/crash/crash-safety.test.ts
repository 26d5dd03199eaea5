import { describe, expect, it } from 'vitest';
import { KNOWN_VIOLATIONS, runCrashTrials, type CrashKind } from './crash-harness.mjs';

// A few seeded kill-and-restart trials per backend (`npm run bench crash` runs hundreds, from a
// new seed each time). The suite keeps one seed so its operations are the same every run (the
// moments of the kills still follow the machine's speed); CRASH_SEED and CRASH_TRIALS change it.
const SEED = Number(process.env.CRASH_SEED ?? 20261125);
const TRIALS = Number(process.env.CRASH_TRIALS ?? 2);
const skipPostgres = process.env.NIMBUS_SKIP_POSTGRES === '1';

const kinds: { kind: CrashKind; skip: boolean }[] = [
  { kind: { db: 'sqlite', storage: 'fs' }, skip: false },
  { kind: { db: 'postgres', storage: 'fs' }, skip: skipPostgres },
  { kind: { db: 'postgres', storage: 's3' }, skip: skipPostgres },
];

describe(`crash safety: SIGKILL at random points, restart, check invariants (CRASH_SEED=${SEED})`, () => {
  for (const { kind, skip } of kinds) {
    it.skipIf(skip)(
      `${kind.db} + ${kind.storage}`,
      async () => {
        const stats = await runCrashTrials({ seed: SEED, trials: TRIALS, kind, killWindowMs: [150, 900], drainTimeoutMs: 15_000 });
        const unexpected = stats.violations.filter((v) => !KNOWN_VIOLATIONS.includes(v.kind));
        expect(stats.kills).toBe(TRIALS);
        expect(stats.invariants).toBeGreaterThan(0);
        expect(unexpected, `seed ${SEED}: ${JSON.stringify(unexpected, null, 1)}`).toEqual([]);
      },
      120_000,
    );
  }

  // Contents replaced (WebDAV PUT onto a file, "Upload new version") while the kills land: every
  // file holds its old content with the versions it had, or the new one with the old kept as a version.
  const replacing = { replaceByDav: 8, uploadVersion: 8, uploadLarge: 0, uploadFolder: 0, tus: 0, deleteFolder: 0 };
  for (const { kind, skip } of kinds.slice(0, 2)) {
    it.skipIf(skip)(
      `${kind.db} + ${kind.storage}: replacing contents`,
      async () => {
        const stats = await runCrashTrials({
          seed: SEED + 1,
          trials: TRIALS + 1,
          kind,
          killWindowMs: [300, 1200],
          drainTimeoutMs: 15_000,
          weights: replacing,
        });
        const unexpected = stats.violations.filter((v) => !KNOWN_VIOLATIONS.includes(v.kind));
        expect(stats.kills).toBe(TRIALS + 1);
        expect(stats.versions).toBeGreaterThan(0);
        expect(unexpected, `seed ${SEED + 1}: ${JSON.stringify(unexpected, null, 1)}`).toEqual([]);
      },
      120_000,
    );
  }
});
