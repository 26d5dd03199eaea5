// Upload and download of one file through Nimbus beside two reference servers, each in its own
// process, with curl as the client (another process): a bare `node:http` pipe to disk, and the
// same pipe doing Nimbus's per-byte work (SHA-256 and AES-256-GCM). Nimbus takes the file three
// ways: a multipart POST, tus (16 MiB PATCH pieces over one keep-alive connection) and a WebDAV
// PUT. Rounds alternate the servers so drift hits all alike. Prints figures, ratios, the server's
// peak resident memory during each kind and the load; asserts nothing.
//
// BENCH_BYTES (1 GiB), BENCH_ROUNDS (2), BENCH_TRANSFER_PARTS (uploads,downloads,zip: which parts
// run), BENCH_NODE_ARGS (flags for the server's node, such as --cpu-prof).
import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { open, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, signUp, startServer } from './support.mjs';

const SIZE = Number(process.env.BENCH_BYTES ?? 1024 * 1024 * 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const MB = 1024 * 1024;
const run = promisify(execFile);

/** The reference server: POST /upload writes the body to disk and fsyncs; GET /download reads it back. */
const REFERENCE = `
const http = require('node:http');
const fs = require('node:fs');
const { createHash, createCipheriv, randomBytes } = require('node:crypto');
const { pipeline, Transform } = require('node:stream');
const [, dir, port, crypto] = process.argv;
const file = require('node:path').join(dir, 'stored.bin');
function work() {
  if (crypto !== 'crypto') return [];
  const hash = createHash('sha256');
  const cipher = createCipheriv('aes-256-gcm', randomBytes(32), randomBytes(12));
  return [new Transform({ transform(chunk, _e, done) { hash.update(chunk); done(null, chunk); }, flush(done) { hash.digest(); done(); } }), cipher];
}
http.createServer((req, res) => {
  if (req.method === 'POST') {
    const out = fs.createWriteStream(file);
    pipeline(req, ...work(), out, (err) => {
      if (err) { res.statusCode = 500; return res.end(); }
      const fd = fs.openSync(file, 'r'); fs.fsyncSync(fd); fs.closeSync(fd);
      res.statusCode = 201; res.end('{}');
    });
  } else {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': fs.statSync(file).size });
    pipeline(fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), ...(crypto === 'crypto' ? work() : []), res, () => undefined);
  }
}).listen(Number(port), '127.0.0.1', () => process.send('ready'));`;

async function startReference(dir, mode) {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', REFERENCE, dir, String(port), mode], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((resolve) => child.once('message', resolve));
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** The server's resident memory now and its peak since `resetPeak` (MB), from /proc. */
const memory = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};
/** Starts a new peak (Linux: writing 5 to clear_refs resets VmHWM); false where that is not allowed. */
const resetPeak = (pid) => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
};

/** curl's own figure: seconds for the whole transfer. */
function curl(args) {
  const out = execFileSync('curl', ['-s', '-S', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', ...args], { encoding: 'utf8' });
  const [status, seconds] = out.trim().split(' ');
  if (!status.startsWith('2')) throw new Error(`curl answered ${status}`);
  return Number(seconds);
}

const PARTS = new Set((process.env.BENCH_TRANSFER_PARTS ?? 'uploads,downloads,zip').split(',').map((p) => p.trim()));
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const TUS_PIECE = 16 * MB;
/** Nimbus's ways in, in the order a round runs them after the reference servers. */
const UPLOADS = ['multipart', 'tus', 'dav'];

/** Runs `work` while sampling the server's resident memory every 50 ms: its result and the peak (MB). */
async function sampled(pid, work) {
  const exact = resetPeak(pid);
  let peak = memory(pid).rss;
  const timer = setInterval(() => (peak = Math.max(peak, memory(pid).rss)), 50);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, exact ? memory(pid).peak : memory(pid).rss) };
  } finally {
    clearInterval(timer);
  }
}

/** curl in its own process, without blocking this one (the memory sampler runs meanwhile). */
const curlAsync = (args) => run('curl', ['-s', '-S', ...args], { maxBuffer: 16 * MB }).then((r) => r.stdout);

const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-bench-transfer-'));
const servers = [];
try {
  const source = path.join(dir, 'source.bin');
  const handle = await open(source, 'w');
  const block = randomBytes(8 * MB);
  for (let written = 0; written < SIZE; written += block.length) await handle.write(block, 0, Math.min(block.length, SIZE - written));
  await handle.close();
  // The same bytes in tus pieces, for `curl -T`.
  const pieces = [];
  if (PARTS.has('uploads')) {
    const whole = await open(source, 'r');
    for (let at = 0; at < SIZE; at += TUS_PIECE) {
      const piece = path.join(dir, `piece-${String(pieces.length).padStart(5, '0')}`);
      const bytes = Buffer.allocUnsafe(Math.min(TUS_PIECE, SIZE - at));
      await whole.read(bytes, 0, bytes.length, at);
      await writeFile(piece, bytes);
      pieces.push(piece);
    }
    await whole.close();
  }

  const bare = await startReference(path.join(dir), 'bare');
  const cryptoPipe = await startReference(path.join(dir), 'crypto');
  const nimbus = await startServer({ dataDir: path.join(dir, 'data'), nodeArgs: NODE_ARGS });
  servers.push(bare, cryptoPipe, nimbus);
  const { email, session } = await signUp(nimbus.base);
  const auth = ['-H', `cookie: ${session.cookie}`, '-H', `uuid: ${session.uuid}`];
  const appPassword = await fetch(`${nimbus.base}/user-service/app-passwords`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...session },
    body: JSON.stringify({ name: 'bench' }),
  }).then(async (r) => (await r.json()).password);
  const davAuth = `${email}:${appPassword}`;
  /** The source file uploaded to the root with curl: its id and curl's seconds. */
  const uploadSource = async (name = 'source.bin') => {
    const [json, seconds] = (
      await curlAsync([
        '-w',
        '\n%{time_total}',
        ...auth,
        '-F',
        'parent=/',
        '-F',
        `file=@${source};filename=${name}`,
        `${nimbus.base}/file-service/upload`,
      ])
    )
      .trim()
      .split('\n');
    return { id: JSON.parse(json)._id, seconds: Number(seconds) };
  };
  /** A tus creation, then every piece as a PATCH in one curl (one keep-alive connection). */
  const uploadTus = async (name) => {
    const b64 = (s) => Buffer.from(s).toString('base64');
    const tus = ['-H', 'tus-resumable: 1.0.0'];
    const start = performance.now();
    const [status, location] = (
      await curlAsync([
        ...['-o', '/dev/null', '-w', '%{http_code} %header{location}', '-X', 'POST', ...auth, ...tus],
        ...['-H', `upload-length: ${SIZE}`, '-H', `upload-metadata: filename ${b64(name)},parent ${b64('/')}`],
        `${nimbus.base}/file-service/tus`,
      ])
    )
      .trim()
      .split(' ');
    if (status !== '201' || !location) throw new Error(`tus creation answered ${status}`);
    const url = new URL(location, nimbus.base).href;
    const args = pieces.flatMap((piece, i) => [
      ...(i > 0 ? ['--next'] : []),
      ...['-X', 'PATCH', '-T', piece, '-o', '/dev/null', '-w', '%{http_code} %header{nimbus-file-id}\\n', ...auth, ...tus],
      ...['-H', 'expect:', '-H', 'content-type: application/offset+octet-stream', '-H', `upload-offset: ${i * TUS_PIECE}`, url],
    ]);
    const answers = (await curlAsync(args)).trim().split('\n');
    if (answers.some((a) => !a.startsWith('204')) || answers.length !== pieces.length)
      throw new Error(`tus PATCH answered ${answers.at(-1)}`);
    return { id: answers.at(-1).split(' ')[1], seconds: (performance.now() - start) / 1000 };
  };
  const uploadDav = async (name) => {
    const [status, seconds] = (
      await curlAsync([
        '-o',
        '/dev/null',
        '-w',
        '%{http_code} %{time_total}',
        '-u',
        davAuth,
        '-H',
        'expect:',
        '-T',
        source,
        `${nimbus.base}/dav/${name}`,
      ])
    )
      .trim()
      .split(' ');
    if (!status.startsWith('2')) throw new Error(`WebDAV PUT answered ${status}`);
    return { name, seconds: Number(seconds) };
  };
  const remove = async (upload) => {
    if (upload.id) {
      await fetch(`${nimbus.base}/file-service/remove`, {
        method: 'DELETE',
        headers: { ...session, 'content-type': 'application/json' },
        body: JSON.stringify({ id: upload.id }),
      });
    } else {
      await fetch(`${nimbus.base}/dav/${upload.name}`, {
        method: 'DELETE',
        headers: { authorization: `Basic ${Buffer.from(davAuth).toString('base64')}` },
      });
    }
  };

  const runs = { bare: { up: [], down: [] }, crypto: { up: [], down: [] }, nimbus: { up: [], down: [] }, tus: { up: [] }, dav: { up: [] } };
  const peaks = { multipart: [], tus: [], dav: [], down: [] };
  const pid = nimbus.child.pid;
  await new Promise((r) => setTimeout(r, 2000));
  const afterStart = memory(pid).rss;
  // V8 hands back what starting up used once the process has idled for about 20 s.
  await new Promise((r) => setTimeout(r, 25_000));
  const atRest = memory(pid).rss;
  const loads = [];
  const ranges = [];
  const kinds = ['bare', 'crypto', ...(PARTS.has('uploads') ? UPLOADS : ['multipart'])];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? kinds : [...kinds].reverse();
    for (const kind of order) {
      execFileSync('sync');
      loads.push(os.loadavg()[0]);
      const name = `${kind}-${round}.bin`;
      if (kind === 'multipart') {
        const { result: upload, peak } = await sampled(pid, () => uploadSource(name));
        runs.nimbus.up.push(upload.seconds);
        peaks.multipart.push(peak);
        if (PARTS.has('downloads')) {
          const { result: seconds, peak: downPeak } = await sampled(pid, () =>
            curl([...auth, `${nimbus.base}/file-service/download/${upload.id}`]),
          );
          runs.nimbus.down.push(seconds);
          peaks.down.push(downPeak);
          // 1 MiB from the middle: only the chunks it touches are read and decrypted.
          const middle = Math.floor(SIZE / 2);
          ranges.push(curl([...auth, '-r', `${middle}-${middle + MB - 1}`, `${nimbus.base}/file-service/download/${upload.id}`]));
        }
        await remove(upload);
      } else if (kind === 'tus' || kind === 'dav') {
        const { result: upload, peak } = await sampled(pid, () => (kind === 'tus' ? uploadTus(name) : uploadDav(name)));
        runs[kind].up.push(upload.seconds);
        peaks[kind].push(peak);
        await remove(upload);
      } else {
        const server = kind === 'bare' ? bare : cryptoPipe;
        runs[kind].up.push(curl(['-X', 'POST', '-H', 'content-type: application/octet-stream', '-T', source, `${server.base}/upload`]));
        if (PARTS.has('downloads')) runs[kind].down.push(curl([`${server.base}/download`]));
      }
    }
  }

  const rate = (seconds) => SIZE / MB / seconds;
  const best = (list) => Math.max(...list.map(rate));
  const pct = (a, b) => `${((a / b) * 100).toFixed(0)} %`;
  const mb = (list) => (list.length ? `${Math.max(...list).toFixed(0)} MB [${list.map((v) => v.toFixed(0)).join(', ')}]` : 'unknown');
  console.log(`\nTransfers of ${(SIZE / MB).toFixed(0)} MiB with curl, each server in its own process (best of ${ROUNDS}):`);
  for (const [kind, label, peak] of [
    ['bare', 'bare node:http pipe'],
    ['crypto', 'crypto pipe (SHA-256 + AES-GCM)'],
    ['nimbus', 'Nimbus multipart POST', 'multipart'],
    ...(PARTS.has('uploads')
      ? [
          ['tus', `Nimbus tus (${TUS_PIECE / MB} MiB PATCHes)`, 'tus'],
          ['dav', 'Nimbus WebDAV PUT', 'dav'],
        ]
      : []),
  ]) {
    const up = best(runs[kind].up);
    const down = runs[kind].down?.length ? `   download ${best(runs[kind].down).toFixed(0).padStart(5)} MB/s` : '';
    const ratio = kind === 'bare' ? '' : `  ${pct(up, best(runs.bare.up)).padStart(5)} of bare`;
    const rounds = runs[kind].up.map((s) => rate(s).toFixed(0)).join(', ');
    console.log(
      `  ${label.padEnd(32)} upload ${up.toFixed(0).padStart(5)} MB/s [${rounds}]${ratio}${down}${peak ? `   server peak ${mb(peaks[peak])}` : ''}`,
    );
  }
  if (PARTS.has('downloads')) {
    console.log(
      `  Nimbus / crypto pipe: upload ${pct(best(runs.nimbus.up), best(runs.crypto.up))}, download ${pct(best(runs.nimbus.down), best(runs.crypto.down))}` +
        `; Nimbus / bare pipe: upload ${pct(best(runs.nimbus.up), best(runs.bare.up))}, download ${pct(best(runs.nimbus.down), best(runs.bare.down))}`,
    );
    console.log(
      `  Range of 1 MiB in the middle: ${(Math.min(...ranges) * 1000).toFixed(1)} ms (the whole file: ${(Math.min(...runs.nimbus.down) * 1000).toFixed(0)} ms)`,
    );
  }

  if (PARTS.has('zip')) {
    // A zip of 1,000 files making up the same size, beside the single-file download.
    const FILES = 1000;
    const folder = await (
      await fetch(`${nimbus.base}/folder-service/create`, {
        method: 'POST',
        headers: { ...session, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'zip-bench', parent: '/' }),
      })
    ).json();
    const piece = randomBytes(Math.floor(SIZE / FILES));
    for (let i = 0; i < FILES; i += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, FILES - i) }, async (_, j) => {
          const form = new FormData();
          form.append('parent', folder._id);
          form.append('file', new Blob([piece]), `part-${String(i + j).padStart(4, '0')}.bin`);
          const r = await fetch(`${nimbus.base}/file-service/upload`, { method: 'POST', headers: session, body: form });
          if (r.status !== 201) throw new Error(`upload ${r.status}`);
        }),
      );
    }
    // Beside a single file of the same size, downloaded in turn with the zip, so both meet the
    // machine in the same state.
    const whole = await uploadSource();
    const zips = [];
    const singles = [];
    for (let round = 0; round < Math.max(ROUNDS, 5); round++) {
      singles.push(curl([...auth, `${nimbus.base}/file-service/download/${whole.id}`]));
      zips.push(curl([...auth, `${nimbus.base}/folder-service/download-zip?folderIDs[]=${folder._id}`]));
    }
    const zipRate = (piece.length * FILES) / MB / Math.min(...zips);
    const singleRate = SIZE / MB / Math.min(...singles);
    // Each round's zip beside the single download just before it (the machine in the same state);
    // the best of each alone can pair one lucky run with an ordinary one.
    const paired = zips.map((z, i) => singles[i] / z).sort((a, b) => a - b);
    console.log(
      `  zip of ${FILES} files (${((piece.length * FILES) / MB).toFixed(0)} MiB): ${zipRate.toFixed(0)} MB/s, ${pct(zipRate, singleRate)} of the single-file download in turn with it (${singleRate.toFixed(0)} MB/s; rounds ${zips
        .map((z, i) => pct(singles[i], z))
        .join(', ')}; median of rounds ${pct(paired[paired.length >> 1], 1)})`,
    );
  }
  console.log(
    `  Nimbus resident memory: ${atRest.toFixed(0)} MB at rest (${afterStart.toFixed(0)} MB 2 s after start); peak during a download ${mb(peaks.down)} (target 128 MB)`,
  );
  console.log(`  load average (1 min) before each transfer: ${loads.map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} cores`);
} finally {
  for (const server of servers) await server.stop();
  await rm(dir, { recursive: true, force: true });
}
