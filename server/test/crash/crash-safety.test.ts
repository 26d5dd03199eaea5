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
});
