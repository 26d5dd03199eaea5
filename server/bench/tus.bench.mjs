// Resumable (tus, 16 MiB pieces) versus single-POST upload of the same 1 GiB file, against the
// built server in its own process on SQLite, alternating the two so drift hits both alike; with
// the server's resident memory sampled during each. Prints figures; asserts nothing.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tus from 'tus-js-client';
import { signUp, startServer } from './support.mjs';

const SIZE = Number(process.env.BENCH_BYTES ?? 1024 * 1024 * 1024);
const CHUNK = Number(process.env.BENCH_TUS_CHUNK ?? 16 * 1024 * 1024);
const ROUNDS = Number(process.env.BENCH_TUS_ROUNDS ?? 4);
const MB = 1024 * 1024;

const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** Runs `work` while sampling the server's RSS every 50 ms; returns its seconds and the highest RSS. */
async function measured(pid, work) {
  let peak = rss(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 50);
  const start = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - start) / 1000, peak: Math.max(peak, rss(pid)) };
  } finally {
    clearInterval(timer);
  }
}

async function writeSource(file) {
  const handle = await open(file, 'w');
  const block = randomBytes(8 * MB);
  for (let written = 0; written < SIZE; written += block.length) await handle.write(block, 0, Math.min(block.length, SIZE - written));
  await handle.close();
}

function postUpload(base, session, file, name) {
  const boundary = `----nimbus${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\n${name}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="parent"\r\n\r\n/\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const payload = Readable.from(
    (async function* () {
      yield head;
      yield* createReadStream(file, { highWaterMark: MB });
      yield tail;
    })(),
  );
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/file-service/upload`,
      {
        method: 'POST',
        headers: {
          ...session,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + SIZE + tail.length,
        },
      },
      (res) => {
        const parts = [];
        res.on('data', (c) => parts.push(c));
        res.on('end', () =>
          res.statusCode === 201 ? resolve(JSON.parse(Buffer.concat(parts).toString())._id) : reject(new Error(`POST ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    pipeline(payload, req).catch(reject);
  });
}

function tusUpload(base, session, file, name) {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(createReadStream(file, { highWaterMark: MB }), {
      endpoint: `${base}/file-service/tus`,
      headers: session,
      chunkSize: CHUNK,
      uploadSize: SIZE,
      metadata: { filename: name, parent: '/' },
      retryDelays: [],
      onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader('nimbus-file-id')),
      onError: reject,
    });
    upload.start();
  });
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-bench-tus-'));
const server = await startServer({ dataDir: path.join(dir, 'data') });
const base = server.base;
try {
  const source = path.join(dir, 'source.bin');
  await writeSource(source);
  const { session } = await signUp(base);
  const remove = (id) =>
    fetch(`${base}/file-service/remove`, {
      method: 'DELETE',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    });

  const atRest = rss(server.child.pid);
  const runs = { post: [], tus: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 === 0 ? ['post', 'tus'] : ['tus', 'post']) {
      const send = kind === 'post' ? postUpload : tusUpload;
      const run = await measured(server.child.pid, () => send(base, session, source, `${kind}-${round}.bin`));
      runs[kind].push(run);
      await remove(run.result);
      // Each run starts with the disk quiet: the last one's dirty pages and deletion are done.
      await new Promise((r) => setTimeout(r, 1000));
      execFileSync('sync');
    }
  }
  const mbps = (run) => SIZE / MB / run.seconds;
  const best = (list) => Math.max(...list.map(mbps));
  console.log(`\nUpload of ${(SIZE / MB).toFixed(0)} MiB, client and server in separate processes (SQLite, fs driver, AES-GCM):`);
  for (const kind of ['post', 'tus']) {
    const label = kind === 'post' ? 'single POST          ' : `tus, ${CHUNK / MB} MiB pieces   `;
    const figures = runs[kind].map((r) => `${mbps(r).toFixed(1)} MB/s (server RSS peak ${r.peak.toFixed(0)} MB)`).join(', ');
    console.log(`  ${label} ${figures}`);
  }
  // Each round's two runs ran back to back: their ratio cancels most of the machine's drift.
  const ratios = runs.tus.map((r, i) => mbps(r) / mbps(runs.post[i])).sort((a, b) => a - b);
  const median = ratios.length % 2 ? ratios[(ratios.length - 1) / 2] : (ratios[ratios.length / 2 - 1] + ratios[ratios.length / 2]) / 2;
  console.log(
    `  tus / POST: median of rounds ${(median * 100).toFixed(1)} %, best of each ${((best(runs.tus) / best(runs.post)) * 100).toFixed(1)} %`,
  );
  console.log(`  server RSS at rest ${atRest.toFixed(0)} MB, after all uploads ${rss(server.child.pid).toFixed(0)} MB`);
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
