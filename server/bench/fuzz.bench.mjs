// `npm run bench fuzz`: hostile requests across every route against the built server in its own
// process, over real HTTP. Prints requests, answers by status, 5xx count, seed, duration and the
// server's RSS before and after; exits non-zero on any 5xx, a dead server or a changed victim.
// FUZZ_SEED and FUZZ_RUNS (default 10000) reproduce or lengthen a run; FUZZ_CONCURRENCY (default 1,
// fully reproducible) sends several at once.
import { execFileSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runFuzz, seedAccounts, snapshotVictim } from '../test/fuzz/fuzz-scenario.mjs';
import { startServer } from './support.mjs';

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 1);

function rssMiB(pid) {
  const kb = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
  return (kb / 1024).toFixed(0);
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-bench-fuzz-'));
// Every request comes from a different address behind a trusted proxy, so login throttling by
// address never locks the fuzzing account out of its own drive.
const server = await startServer({ dataDir: path.join(dir, 'data'), env: { TRUST_PROXY: 'true', LOG_LEVEL: 'error' } });

/** fetch as the fuzz client: any method, header or body the wire can carry. */
async function client({ method, url, headers, body, remoteAddress }) {
  const sent = { ...headers };
  // fetch frames the body itself; a contradicting length is the raw-socket test's business.
  delete sent['content-length'];
  if (remoteAddress && !('x-forwarded-for' in sent)) sent['x-forwarded-for'] = remoteAddress;
  const hasBody = body !== undefined && !['GET', 'HEAD'].includes(method);
  let response;
  try {
    response = await fetch(`${server.base}${url}`, {
      method,
      headers: sent,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
      ...(hasBody ? { body, duplex: 'half' } : {}),
    });
  } catch (err) {
    // The server may answer (413, 431) and close before taking a whole body; fetch then reports
    // only a failure. That is an answer, status 0 here, as long as the server is still up.
    const alive = await fetch(`${server.base}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (!alive) throw err;
    return { status: 0, headers: {}, body: Buffer.alloc(0) };
  }
  const out = {};
  response.headers.forEach((value, name) => (out[name] = value));
  out['set-cookie'] = response.headers.getSetCookie();
  return { status: response.status, headers: out, body: Buffer.from(await response.arrayBuffer()) };
}

let failed = false;
try {
  const { attacker, victim, ctx, victimTusIds } = await seedAccounts(client);
  const before = await snapshotVictim(victim, victimTusIds);
  const rssBefore = rssMiB(server.child.pid);
  const started = Date.now();
  let shown = 0;
  const stats = await runFuzz({
    client,
    ctx,
    attacker,
    seed: SEED,
    runs: RUNS,
    concurrency: CONCURRENCY,
    onProgress: (s) => {
      if (s.requests - shown >= 2000) {
        shown = s.requests;
        console.log(`  … ${s.requests} requests, ${s.serverErrors.length} 5xx, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
    },
  });
  const seconds = (Date.now() - started) / 1000;
  const alive = await fetch(`${server.base}/health`).then(
    (r) => r.status === 200,
    () => false,
  );
  const after = alive ? await snapshotVictim(victim, victimTusIds) : null;
  const untouched = isDeepStrictEqual(before, after);
  console.log(`\nFuzz across every route (SQLite, real HTTP), seed ${SEED}, concurrency ${CONCURRENCY}:`);
  console.log(
    `  requests      ${stats.requests} in ${seconds.toFixed(1)} s (${(stats.requests / seconds).toFixed(0)}/s), ${Object.keys(stats.byRoute).length} routes`,
  );
  console.log(`  by status     ${JSON.stringify(stats.byStatus)} (0: closed by the server before the body was sent)`);
  console.log(`  5xx           ${stats.serverErrors.length}`);
  console.log(`  transport     ${stats.transportErrors.length} errors, ${stats.reSignIns} re-sign-ins`);
  console.log(`  RSS           ${rssBefore} MiB before, ${alive ? rssMiB(server.child.pid) : '?'} MiB after`);
  console.log(`  health        ${alive ? 'answers' : 'DOWN'}; victim's data ${untouched ? 'unchanged' : 'CHANGED'}`);
  for (const line of [...stats.serverErrors, ...stats.transportErrors].slice(0, 20)) console.log(`  ! ${line}`);
  if (!untouched && after) console.log(`  victim before: ${JSON.stringify(before)}\n  victim after:  ${JSON.stringify(after)}`);
  failed = stats.serverErrors.length > 0 || stats.transportErrors.length > 0 || !alive || !untouched;
  if (failed) console.log(`  reproduce: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npm run bench fuzz`);
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
