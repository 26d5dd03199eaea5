// Many small uploads: files/s of 4 KiB files sent by 8 parallel clients to Nimbus and to a bare
// `node:http` server that writes and fsyncs each file, each server in its own process, in turns; and the
// server's resident memory over 1,000 sequential uploads after a warm-up. Prints figures; asserts nothing.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort, signUp, startServer } from './support.mjs';

const FILES = Number(process.env.BENCH_SMALL_FILES ?? 10_000);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 1_000);
const WARMUP = 250;
const ROUNDS = Number(process.env.BENCH_SMALL_ROUNDS ?? 3);
const CLIENTS = 8;
const SIZE = 4 * 1024;

const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

const BARE = `
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const [, dir, port] = process.argv;
let n = 0;
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const file = path.join(dir, 'f' + n++);
    fs.open(file, 'w', (err, fd) => {
      if (err) { res.statusCode = 500; return res.end(); }
      fs.write(fd, Buffer.concat(chunks), (err2) => fs.fsync(fd, () => fs.close(fd, () => { res.statusCode = err2 ? 500 : 201; res.end('{}'); })));
    });
  });
}).listen(Number(port), '127.0.0.1', () => process.send('ready'));`;

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

/** One request with the body as given; resolves with the status. */
function send(url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function multipart(name, data) {
  const boundary = `----nimbus${randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="parent"\r\n\r\n/\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** `count` requests from `CLIENTS` parallel loops; answers files per second. */
async function parallel(count, one) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = next++; i < count; i = next++) {
        const status = await one(i);
        if (status !== 201) throw new Error(`answered ${status}`);
      }
    }),
  );
  return count / ((performance.now() - start) / 1000);
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-bench-small-'));
const port = await freePort();
const bare = spawn(process.execPath, ['-e', BARE, dir, String(port)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
await new Promise((resolve) => bare.once('message', resolve));
const nimbus = await startServer({ dataDir: path.join(dir, 'data') });
try {
  const { session } = await signUp(nimbus.base);
  const data = randomBytes(SIZE);

  // The first few hundred uploads warm the server up (compiled code, SQLite's page cache, the heap
  // at its working size); growth after them is what a leak would show.
  const memory = { first: 0, warm: 0, after: [] };
  for (let i = 0; i < WARMUP + SEQUENTIAL; i++) {
    const { body, contentType } = multipart(`seq-${i}.bin`, data);
    if ((await send(`${nimbus.base}/file-service/upload`, { ...session, 'content-type': contentType }, body)) !== 201)
      throw new Error('upload');
    const n = i + 1 - WARMUP;
    if (i === 0) memory.first = rss(nimbus.child.pid);
    else if (n === 0) memory.warm = rss(nimbus.child.pid);
    else if (n > 0 && n % 250 === 0) memory.after.push(rss(nimbus.child.pid));
  }

  // The disk's fsync time drifts over minutes on a shared machine, so the two servers take turns,
  // and the ratio is read per round.
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const bare = await parallel(FILES, () => send(`http://127.0.0.1:${port}/`, { 'content-type': 'application/octet-stream' }, data));
    const load = os.loadavg()[0];
    const nimbusRate = await parallel(FILES, (i) => {
      const { body, contentType } = multipart(`small-${round}-${i}.bin`, data);
      return send(`${nimbus.base}/file-service/upload`, { ...session, 'content-type': contentType }, body);
    });
    rounds.push({ bare, nimbus: nimbusRate, ratio: nimbusRate / bare, load });
  }
  console.log(
    `\nSmall files: ${FILES} files of ${SIZE / 1024} KiB from ${CLIENTS} parallel clients per round, each server in its own process:`,
  );
  for (const [i, r] of rounds.entries()) {
    console.log(
      `  round ${i + 1}: bare node:http (write + fsync each) ${r.bare.toFixed(0)} files/s, Nimbus (SQLite, fs, encrypted) ${r.nimbus.toFixed(0)} files/s: ${(r.ratio * 100).toFixed(0)} % (load ${r.load.toFixed(2)})`,
    );
  }
  const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor(rounds.length / 2)];
  console.log(`  median of rounds: ${(median.ratio * 100).toFixed(0)} % of bare (Nimbus ${median.nimbus.toFixed(0)} files/s)`);
  console.log(
    `  server RSS over ${SEQUENTIAL} sequential uploads after ${WARMUP} to warm up: ${memory.warm.toFixed(0)} MB before, ` +
      `${memory.after.at(-1)?.toFixed(0)} MB after (each 250: ${memory.after.map((m) => m.toFixed(0)).join(', ')} MB; ${memory.first.toFixed(0)} MB after the first upload)`,
  );
} finally {
  bare.kill();
  await nimbus.stop();
  await rm(dir, { recursive: true, force: true });
}
