// Resumable (tus, 16 MiB pieces) versus single-POST upload of the same 1 GiB file, against the
// built server in its own process on SQLite, with every client in a process of its own too:
// curl (a multipart POST; a tus creation, then every piece as a PATCH over one keep-alive
// connection) and Node (a hand-made multipart POST; tus-js-client, what the web app uses). The
// runs of a round alternate their order so drift hits both of a pair alike, and the disk is
// synced between runs; the server's resident memory is sampled during each. Prints figures,
// ratios per client kind and the load; asserts nothing.
//
// BENCH_BYTES (1 GiB), BENCH_TUS_CHUNK (16 MiB), BENCH_TUS_ROUNDS (4), BENCH_TUS_CLIENTS
// (curl,node), BENCH_TUS_NODE_ARGS (flags for the server's node, such as --cpu-prof).
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { signUp, startServer } from './support.mjs';

const SIZE = Number(process.env.BENCH_BYTES ?? 1024 * 1024 * 1024);
const CHUNK = Number(process.env.BENCH_TUS_CHUNK ?? 16 * 1024 * 1024);
const ROUNDS = Number(process.env.BENCH_TUS_ROUNDS ?? 4);
const CLIENTS = (process.env.BENCH_TUS_CLIENTS ?? 'curl,node').split(',').map((c) => c.trim());
const MB = 1024 * 1024;
const TUS = { 'tus-resumable': '1.0.0' };

/** The single POST and the tus upload of each client kind, in the order a round runs them. */
const KINDS = {
  curl: { post: 'curl POST', tus: 'curl tus' },
  node: { post: 'node POST', tus: 'tus-js-client' },
};

const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const run = promisify(execFile);
/** CPU seconds the process has used (user + system, every thread), from /proc. */
const cpu = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

// ---------------------------------------------------------------------------------------------
// The Node clients, run as `node tus.bench.mjs --client <post|tus> <base> <session> <file> <name> <size> <chunk>`:
// each prints `{ id, seconds }`, its seconds counted from after its imports.

function postUpload(base, session, file, name, size) {
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
          'content-length': head.length + size + tail.length,
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

async function tusUpload(base, session, file, name, size, chunk) {
  const tus = await import('tus-js-client');
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(createReadStream(file, { highWaterMark: MB }), {
      endpoint: `${base}/file-service/tus`,
      headers: session,
      chunkSize: chunk,
      uploadSize: size,
      metadata: { filename: name, parent: '/' },
      retryDelays: [],
      onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader('nimbus-file-id')),
      onError: reject,
    });
    upload.start();
  });
}

async function nodeClient([kind, base, session, file, name, size, chunk]) {
  if (kind === 'tus') await import('tus-js-client');
  const start = performance.now();
  const send = kind === 'post' ? postUpload : tusUpload;
  const id = await send(base, JSON.parse(session), file, name, Number(size), Number(chunk));
  process.stdout.write(JSON.stringify({ id, seconds: (performance.now() - start) / 1000 }));
}

// ---------------------------------------------------------------------------------------------
// The curl clients.

const curlAuth = (session) => ['-H', `cookie: ${session.cookie}`, '-H', `uuid: ${session.uuid}`];

/** `curl -F`: the same fields as the Node POST (filename, parent, file). */
async function curlPost(base, session, file, name) {
  const { stdout } = await run(
    'curl',
    [
      ...['-s', '-S', '-w', '\\n%{http_code}', ...curlAuth(session), '-H', 'expect:'],
      ...['-F', `filename=${name}`, '-F', 'parent=/', '-F', `file=@${file};filename=${name};type=application/octet-stream`],
      `${base}/file-service/upload`,
    ],
    { maxBuffer: 16 * MB },
  );
  const lines = stdout.trim().split('\n');
  const status = lines.pop();
  if (status !== '201') throw new Error(`curl POST answered ${status}: ${lines.join('\n')}`);
  return JSON.parse(lines.join('\n'))._id;
}

/** A tus creation (one curl), then every piece as a PATCH in ONE curl: one keep-alive connection. */
async function curlTus(base, session, pieces, name) {
  const b64 = (s) => Buffer.from(s).toString('base64');
  const created = await run('curl', [
    ...['-s', '-S', '-o', '/dev/null', '-w', '%{http_code} %header{location}', '-X', 'POST', ...curlAuth(session)],
    ...['-H', `tus-resumable: ${TUS['tus-resumable']}`, '-H', `upload-length: ${SIZE}`],
    ...['-H', `upload-metadata: filename ${b64(name)},parent ${b64('/')}`],
    `${base}/file-service/tus`,
  ]);
  const [status, location] = created.stdout.trim().split(' ');
  if (status !== '201' || !location) throw new Error(`tus creation answered ${created.stdout}`);
  const url = new URL(location, base).href;
  const args = ['-s', '-S'];
  pieces.forEach((piece, i) => {
    if (i > 0) args.push('--next');
    args.push(
      ...['-X', 'PATCH', '-T', piece, '-o', '/dev/null', '-w', '%{http_code} %header{upload-offset} %header{nimbus-file-id}\\n'],
      ...[...curlAuth(session), '-H', 'expect:', '-H', `tus-resumable: ${TUS['tus-resumable']}`],
      ...['-H', 'content-type: application/offset+octet-stream', '-H', `upload-offset: ${i * CHUNK}`, url],
    );
  });
  const { stdout } = await run('curl', args, { maxBuffer: 16 * MB });
  const answers = stdout.trim().split('\n');
  const bad = answers.find((a) => !a.startsWith('204 '));
  if (bad || answers.length !== pieces.length) throw new Error(`tus PATCH answered ${bad ?? `${answers.length} times`}`);
  const id = answers.at(-1).split(' ')[2];
  if (!id) throw new Error('The last PATCH named no file');
  return id;
}

// ---------------------------------------------------------------------------------------------

/** Runs `work` while sampling the server's RSS every 50 ms; answers its seconds, the highest RSS and the load. */
async function measured(pid, work) {
  let peak = rss(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 50);
  const load = os.loadavg()[0];
  const cpuBefore = cpu(pid);
  const start = performance.now();
  try {
    const result = await work();
    const seconds = result.seconds ?? (performance.now() - start) / 1000;
    const cpuSeconds = cpu(pid) - cpuBefore;
    return { id: result.id ?? result, seconds, cpuSeconds, peak: Math.max(peak, rss(pid)), load: (load + os.loadavg()[0]) / 2 };
  } finally {
    clearInterval(timer);
  }
}

async function writeSource(file, piecesDir) {
  const handle = await open(file, 'w');
  const block = randomBytes(8 * MB);
  for (let written = 0; written < SIZE; written += block.length) await handle.write(block, 0, Math.min(block.length, SIZE - written));
  await handle.close();
  // The same bytes split into the tus pieces, for `curl -T`.
  await mkdir(piecesDir);
  const pieces = [];
  const source = await open(file, 'r');
  for (let at = 0; at < SIZE || at === 0; at += CHUNK) {
    const piece = path.join(piecesDir, `piece-${String(pieces.length).padStart(5, '0')}`);
    const bytes = Buffer.alloc(Math.min(CHUNK, SIZE - at));
    await source.read(bytes, 0, bytes.length, at);
    const out = await open(piece, 'w');
    await out.write(bytes);
    await out.close();
    pieces.push(piece);
    if (SIZE === 0) break;
  }
  await source.close();
  return pieces;
}

const median = (list) => {
  const s = [...list].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-bench-tus-'));
  const nodeArgs = (process.env.BENCH_TUS_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = await startServer({ dataDir: path.join(dir, 'data'), nodeArgs });
  const base = server.base;
  const loadAtStart = os.loadavg();
  try {
    const source = path.join(dir, 'source.bin');
    const pieces = await writeSource(source, path.join(dir, 'pieces'));
    const { session } = await signUp(base);
    const remove = (id) =>
      fetch(`${base}/file-service/remove`, {
        method: 'DELETE',
        headers: { ...session, 'content-type': 'application/json' },
        body: JSON.stringify({ id }),
      });
    const self = import.meta.filename;
    const node = async (kind, name) => {
      const { stdout } = await run(process.execPath, [
        self,
        '--client',
        kind,
        base,
        JSON.stringify(session),
        source,
        name,
        String(SIZE),
        String(CHUNK),
      ]);
      return JSON.parse(stdout);
    };
    const clients = {
      'curl POST': (name) => curlPost(base, session, source, name),
      'curl tus': (name) => curlTus(base, session, pieces, name),
      'node POST': (name) => node('post', name),
      'tus-js-client': (name) => node('tus', name),
    };

    const atRest = rss(server.child.pid);
    const order = CLIENTS.flatMap((c) => [KINDS[c].post, KINDS[c].tus]);
    const runs = Object.fromEntries(order.map((label) => [label, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const label of round % 2 === 0 ? order : [...order].reverse()) {
        // Each run starts with the disk quiet: the last one's dirty pages and deletion are done.
        execFileSync('sync');
        await new Promise((r) => setTimeout(r, 1000));
        const name = `${label.replace(/\W+/g, '-')}-${round}.bin`;
        const result = await measured(server.child.pid, () => clients[label](name));
        runs[label].push(result);
        await remove(result.id);
      }
    }

    const mbps = (r) => SIZE / MB / r.seconds;
    const best = (list) => Math.max(...list.map(mbps));
    console.log(
      `\nUpload of ${(SIZE / MB).toFixed(0)} MiB, tus in ${CHUNK / MB} MiB pieces, server and every client in its own process` +
        ` (SQLite, fs driver, AES-GCM), ${ROUNDS} rounds:`,
    );
    for (const label of order) {
      const list = runs[label];
      console.log(
        `  ${label.padEnd(14)} median ${median(list.map(mbps)).toFixed(1).padStart(6)} MB/s  [${list.map((r) => mbps(r).toFixed(1)).join(', ')}]` +
          `  server RSS peak ${Math.max(...list.map((r) => r.peak)).toFixed(0)} MB [${list.map((r) => r.peak.toFixed(0)).join(', ')}]` +
          `  server CPU ${median(list.map((r) => (r.cpuSeconds * 1000) / (SIZE / MB))).toFixed(2)} ms/MiB  load ${median(list.map((r) => r.load)).toFixed(2)}`,
      );
    }
    // Each round's two runs of a kind ran back to back: their ratio cancels most of the machine's drift.
    for (const c of CLIENTS) {
      const { post, tus } = KINDS[c];
      const ratios = runs[tus].map((r, i) => mbps(r) / mbps(runs[post][i]));
      console.log(
        `  ${`${tus} / ${post}`.padEnd(28)} median of rounds ${(median(ratios) * 100).toFixed(1)} %` +
          ` [${ratios.map((r) => (r * 100).toFixed(0)).join(', ')}], best of each ${((best(runs[tus]) / best(runs[post])) * 100).toFixed(1)} %`,
      );
    }
    const loadAtEnd = os.loadavg();
    const fmt = (l) => l.map((x) => x.toFixed(2)).join(' ');
    console.log(`  server RSS at rest ${atRest.toFixed(0)} MB, after all uploads ${rss(server.child.pid).toFixed(0)} MB`);
    console.log(`  load average (1/5/15 min) at start ${fmt(loadAtStart)}, at end ${fmt(loadAtEnd)}, on ${os.cpus().length} cores`);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--client') await nodeClient(process.argv.slice(3));
else await main();
