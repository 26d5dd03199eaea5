// `npm run bench crash`: seeded fault injection against the built server in its own process. A
// client drives a random mix of operations, the server is SIGKILLed at a random moment, restarted
// on the same data and the invariants are checked (test/crash/crash-harness.mjs). Prints trials,
// kills, operations, invariants checked, violations and duration per backend; exits non-zero on a
// violation that is not a known, reported bug. CRASH_SEED replays a run, CRASH_TRIALS (default 100
// per backend) lengthens it, CRASH_KINDS (e.g. `sqlite+fs,postgres+s3`) picks backends.
import { KNOWN_VIOLATIONS, runCrashTrials } from '../test/crash/crash-harness.mjs';

const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const TRIALS = Number(process.env.CRASH_TRIALS ?? 100);
const KINDS = (process.env.CRASH_KINDS ?? 'sqlite+fs,postgres+fs,postgres+s3,sqlite+s3').split(',').map((k) => {
  const [db, storage] = k.split('+');
  return { db, storage };
});

console.log(`crash: seed ${SEED} (CRASH_SEED=${SEED} replays), ${TRIALS} trials per backend`);
let unexpected = 0;
for (const kind of KINDS) {
  const stats = await runCrashTrials({ seed: SEED, trials: TRIALS, kind });
  const byKind = {};
  for (const v of stats.violations) byKind[v.kind] = (byKind[v.kind] ?? 0) + 1;
  const fresh = stats.violations.filter((v) => !KNOWN_VIOLATIONS.includes(v.kind));
  unexpected += fresh.length;
  console.log(
    `${stats.kind.padEnd(12)} trials ${stats.trials}, kills ${stats.kills}, operations ${stats.operations} ` +
      `(${stats.answered} answered, ${stats.cut} cut by a kill), invariants checked ${stats.invariants}, ` +
      `violations ${stats.violations.length} ${JSON.stringify(byKind)}, ` +
      `stray blobs collected by the cleanup ${stats.straysCollected}, jobs waiting on a dead lease ${stats.strandedJobs}, s3rver restarts ${stats.s3Restarts}, ${(stats.durationMs / 1000).toFixed(1)} s`,
  );
  for (const v of fresh.slice(0, 20)) console.log(`  trial ${v.trial}: ${v.kind}: ${v.detail}`);
}
process.exit(unexpected ? 1 : 0);
