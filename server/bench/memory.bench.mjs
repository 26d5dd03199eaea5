// Resident memory of the server, started as `npm start` starts it (its Node flags and environment,
// AI search on, SQLite): at rest 2 s and 10 s after it answers, at the peak of a 1 GiB upload and of
// its download with curl (another process), and after 30 s idle. Peaks are VmHWM from /proc, reset
// before each transfer. Prints the figures beside the targets and the load; asserts nothing.
// BENCH_BYTES changes the size, BENCH_MEMORY_ROUNDS the transfers; BENCH_NODE_ARGS adds Node flags
// to the server's, to compare.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { serverEnv, serverNodeArgs } from '../../scripts/server-runtime.mjs';
import { signUp, startServer } from './support.mjs';

const SIZE = Number(process.env.BENCH_BYTES ?? 1024 * 1024 * 1024);
const ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 1);
const MiB = 1024 * 1024;
const TARGET_AT_REST = 90;
const TARGET_PEAK = 128;

/** Resident memory now and its peak since `resetPeak`, in MiB, from /proc. */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Starts a new peak (writing 5 to clear_refs resets VmHWM); false where that is not allowed. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => os.loadavg()[0].toFixed(2);
const mib = (n) => `${n.toFixed(1)} MiB`;
const rows = [];
let pid;
/** Threads of the server now: the main thread, libuv's, V8's and any worker threads alive. */
const threads = () => readdirSync(`/proc/${pid}/task`).length;
const row = (what, figure, target) =>
  rows.push([
    what,
    mib(figure),
    target === undefined ? '' : `≤ ${target} MiB`,
    target === undefined ? '' : figure <= target ? 'met' : 'over',
    threads(),
    load(),
  ]);

const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-bench-memory-'));
let server;
try {
  const source = path.join(dir, 'source.bin');
  const handle = await open(source, 'w');
  const block = randomBytes(8 * MiB);
  for (let written = 0; written < SIZE; written += block.length) await handle.write(block, 0, Math.min(block.length, SIZE - written));
  await handle.close();

  server = await startServer({
    dataDir: path.join(dir, 'data'),
    env: { SEMANTIC_SEARCH: process.env.SEMANTIC_SEARCH ?? 'on' },
    nodeArgs: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
  });
  pid = server.child.pid;
  const started = Date.now();
  await sleep(2000);
  row('at rest, 2 s after start', memory(pid).rss);
  await sleep(started + 10_000 - Date.now());
  row('at rest, 10 s after start', memory(pid).rss, TARGET_AT_REST);

  const { session } = await signUp(server.base);
  const auth = ['-H', `cookie: ${session.cookie}`, '-H', `uuid: ${session.uuid}`];
  const label = SIZE >= 1024 * MiB ? `${(SIZE / 1024 / MiB).toFixed(SIZE % (1024 * MiB) ? 1 : 0)} GiB` : `${(SIZE / MiB).toFixed(0)} MiB`;
  for (let round = 0; round < ROUNDS; round++) {
    execFileSync('sync');
    const peaksKnown = resetPeak(pid);
    const upload = execFileSync(
      'curl',
      ['-s', '-S', '-w', '\\n%{time_total}', ...auth, '-F', 'parent=/', '-F', `file=@${source}`, `${server.base}/file-service/upload`],
      { encoding: 'utf8', maxBuffer: 16 * MiB },
    );
    const [json, upSeconds] = upload.trim().split('\n');
    const id = JSON.parse(json)._id;
    const up = memory(pid);
    row(
      `upload of ${label} (${(SIZE / MiB / Number(upSeconds)).toFixed(0)} MiB/s), ${peaksKnown ? 'peak' : 'after'}`,
      peaksKnown ? up.peak : up.rss,
      TARGET_PEAK,
    );
    resetPeak(pid);
    const downSeconds = execFileSync(
      'curl',
      ['-s', '-S', '-o', '/dev/null', '-w', '%{time_total}', ...auth, `${server.base}/file-service/download/${id}`],
      {
        encoding: 'utf8',
      },
    );
    const down = memory(pid);
    row(
      `download of ${label} (${(SIZE / MiB / Number(downSeconds)).toFixed(0)} MiB/s), ${peaksKnown ? 'peak' : 'after'}`,
      peaksKnown ? down.peak : down.rss,
      TARGET_PEAK,
    );
    await fetch(`${server.base}/file-service/remove`, {
      method: 'DELETE',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    });
  }
  await sleep(30_000);
  row('after the transfers and 30 s idle', memory(pid).rss, TARGET_AT_REST);

  const flags = [
    ...serverNodeArgs,
    ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ...Object.entries(serverEnv).map(([k, v]) => `${k}=${v}`),
  ].join(' ');
  console.log(`\nServer resident memory (SQLite; npm start's flags and environment: ${flags})`);
  console.log(['What', 'RSS', 'Target', '', 'Threads', 'Load (1 min)'].join(' | '));
  for (const r of rows) console.log(r.join(' | '));
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 1024 / MiB).toFixed(1)} GiB, ${new Date().toISOString().slice(0, 10)}`,
  );
} finally {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
}
