// Authenticated API request rates beside a bare `node:http` server answering JSON of the same size,
// each server in its own process and `wrk -c50` as the client. Prints figures; asserts nothing.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort, signUp, startServer } from './support.mjs';

const SECONDS = Number(process.env.BENCH_WRK_SECONDS ?? 8);
const CONNECTIONS = 50;

/** A bare node:http server answering `bytes` of JSON to every request, in its own process. */
async function startBareJson(bytes) {
  const port = await freePort();
  const source = `
    const body = Buffer.from(JSON.stringify({ data: 'x'.repeat(${Math.max(0, bytes - 11)}) }));
    require('node:http').createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    }).listen(${port}, '127.0.0.1', () => process.send('ready'));`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((resolve) => child.once('message', resolve));
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/**
 * A wrk script that makes every request's query string unique (a parameter the routes ignore), so
 * no kept answer serves it: the rate of answering anew, with the cache's own bookkeeping included.
 */
const FRESH_SCRIPT = `
local threads = 0
function setup(thread) threads = threads + 1; thread:set("id", threads) end
function init(args) n = 0 end
function request()
  n = n + 1
  local sep = string.find(wrk.path, "?", 1, true) and "&" or "?"
  return wrk.format(nil, wrk.path .. sep .. "fresh=" .. id .. "-" .. n)
end`;

/** CPU time (user and system) a process has used so far, in ms; undefined where /proc is not there. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS);
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = 100;

/** wrk against `url`; with `pid`, also the CPU time that process spent per request answered. */
function wrk(url, headers = {}, script, pid) {
  const args = ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency'];
  if (script) args.push('-s', script);
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  const load = os.loadavg()[0];
  const cpuBefore = pid === undefined ? undefined : cpuMs(pid);
  const out = execFileSync('wrk', [...args, url], { encoding: 'utf8' });
  const cpuAfter = pid === undefined ? undefined : cpuMs(pid);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const cpuPerRequest =
    cpuBefore === undefined || cpuAfter === undefined || !requests ? undefined : ((cpuAfter - cpuBefore) * 1000) / requests;
  const rate = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]);
  const p50 = /^\s+50%\s+([\d.]+\w+)/m.exec(out)?.[1] ?? '?';
  const p99 = /^\s+99%\s+([\d.]+\w+)/m.exec(out)?.[1] ?? '?';
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? '0';
  return { rate, p50, p99, errors: Number(errors), load, cpuPerRequest };
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-bench-requests-'));
const nimbus = await startServer({ dataDir: path.join(dir, 'data') });
let bare;
try {
  const { session } = await signUp(nimbus.base);
  for (let i = 0; i < 50; i++) {
    const form = new FormData();
    form.append('parent', '/');
    form.append('file', new Blob([`file ${i}`]), `report-${String(i).padStart(2, '0')}.txt`);
    const r = await fetch(`${nimbus.base}/file-service/upload`, { method: 'POST', headers: session, body: form });
    if (r.status !== 201) throw new Error(`upload ${r.status}`);
  }
  for (let i = 0; i < 10; i++) {
    await fetch(`${nimbus.base}/folder-service/create`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Folder ${i}`, parent: '/' }),
    });
  }
  const listBytes = (await (await fetch(`${nimbus.base}/file-service/list`, { headers: session })).arrayBuffer()).byteLength;
  bare = await startBareJson(listBytes);

  const routes = [
    ['file-service/list (50 files)', '/file-service/list'],
    ['folder-service/list (10)', '/folder-service/list'],
    ['file-service/quick-list', '/file-service/quick-list'],
    ['user-service/user', '/user-service/user'],
  ];
  const fresh = path.join(dir, 'fresh.lua');
  await writeFile(fresh, FRESH_SCRIPT);
  const baseline = wrk(`${bare.base}/`);
  console.log(`\nRequest rates, wrk -t2 -c${CONNECTIONS} for ${SECONDS} s, each server in its own process (SQLite):`);
  console.log(
    `  bare node:http JSON (${listBytes} B)  ${baseline.rate.toFixed(0)} req/s, p50 ${baseline.p50}, p99 ${baseline.p99} (load ${baseline.load.toFixed(2)})`,
  );
  const report = (label, r, bareRate = baseline.rate) =>
    console.log(
      `  ${label.padEnd(38)} ${r.rate.toFixed(0).padStart(6)} req/s, p50 ${r.p50}, p99 ${r.p99}, ${r.errors} errors, ` +
        `${((r.rate / bareRate) * 100).toFixed(1)} % of bare` +
        (r.cpuPerRequest === undefined ? '' : `, server CPU ${r.cpuPerRequest.toFixed(0)} µs/request`) +
        ` (load ${r.load.toFixed(2)})`,
    );
  for (const [label, route] of routes) report(label, wrk(`${nimbus.base}${route}`, session, undefined, nimbus.child.pid));
  // On a shared machine the bare rate drifts: each line made anew is set against a bare run just before it.
  console.log('  Each request with a query string of its own, so no kept answer serves it (against the bare run just before):');
  for (const [label, route] of routes) {
    const bareNow = wrk(`${bare.base}/`);
    console.log(
      `  ${'bare node:http JSON'.padEnd(38)} ${bareNow.rate.toFixed(0).padStart(6)} req/s, p50 ${bareNow.p50}, p99 ${bareNow.p99}`,
    );
    report(`${label}, anew`, wrk(`${nimbus.base}${route}`, session, fresh, nimbus.child.pid), bareNow.rate);
  }
} finally {
  bare?.stop();
  await nimbus.stop();
  await rm(dir, { recursive: true, force: true });
}
