// Upload/download throughput through the API versus a bare node:http pipe, peak server RSS,
// and list/search latency over 100,000 files on SQLite. Prints figures; asserts nothing.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const dist = path.resolve(import.meta.dirname, '../dist');
const SIZE = Number(process.env.BENCH_BYTES ?? 1024 * 1024 * 1024);
const FILES = Number(process.env.BENCH_FILES ?? 100_000);
const MB = 1024 * 1024;

const block = randomBytes(MB);
function body(size) {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const n = Math.min(MB, size - sent);
      sent += n;
      this.push(n === MB ? block : block.subarray(0, n));
    },
  });
}

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

function request(url, { method = 'GET', headers = {}, payload } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => resolve(res));
    req.on('error', reject);
    if (payload) pipeline(payload, req).catch(reject);
    else req.end();
  });
}

async function drain(res) {
  let n = 0;
  for await (const chunk of res) n += chunk.length;
  return n;
}

function peakRss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024;
}

async function bareBaseline(dir) {
  const file = path.join(dir, 'bare.bin');
  const server = http.createServer(async (req, res) => {
    if (req.method === 'PUT') {
      const out = createWriteStream(file);
      await pipeline(req, out);
      res.end('ok');
    } else {
      pipeline(createReadStream(file), res).catch(() => undefined);
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/`;
  let t = performance.now();
  await drain(await request(url, { method: 'PUT', headers: { 'content-length': SIZE }, payload: body(SIZE) }));
  const up = SIZE / MB / ((performance.now() - t) / 1000);
  t = performance.now();
  await drain(await request(url));
  const down = SIZE / MB / ((performance.now() - t) / 1000);
  server.close();
  await rm(file, { force: true });
  return { up, down };
}

async function throughApi(dir) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(dist, 'main.js')], {
    env: { ...process.env, DATA_DIR: path.join(dir, 'data'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const uuid = randomUUID();
  const created = await fetch(`${base}/user-service/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', uuid },
    body: JSON.stringify({ email: `bench-${uuid}@example.com`, password: 'bench-password' }),
  });
  const cookie = created.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const rssAtRest = peakRss(child.pid);

  const boundary = `----nimbus${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="parent"\r\n\r\n/\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const multipart = Readable.from(
    (async function* () {
      yield head;
      for await (const chunk of body(SIZE)) yield chunk;
      yield tail;
    })(),
  );
  let t = performance.now();
  const res = await request(`${base}/file-service/upload`, {
    method: 'POST',
    headers: {
      uuid,
      cookie,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': head.length + SIZE + tail.length,
    },
    payload: multipart,
  });
  const text = await (async () => {
    const parts = [];
    for await (const c of res) parts.push(c);
    return Buffer.concat(parts).toString();
  })();
  const up = SIZE / MB / ((performance.now() - t) / 1000);
  const rssUp = peakRss(child.pid);
  const file = JSON.parse(text);
  t = performance.now();
  const got = await drain(await request(`${base}/file-service/download/${file._id}`, { headers: { cookie } }));
  const down = SIZE / MB / ((performance.now() - t) / 1000);
  const rssDown = peakRss(child.pid);
  if (got !== SIZE) throw new Error(`downloaded ${got} bytes, expected ${SIZE}`);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { up, down, rssAtRest, rssUp, rssDown };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function listLatency(dir) {
  const { buildApp } = await import(path.join(dist, 'app.js'));
  const { newId } = await import(path.join(dist, 'security/ids.js'));
  const config = {
    http: { port: 0, host: '127.0.0.1', appUrl: 'http://localhost', secureCookies: false },
    logLevel: 'silent',
    dataDir: dir,
    db: { driver: 'sqlite', path: path.join(dir, 'bench.sqlite') },
    storage: { driver: 'fs', root: path.join(dir, 'files') },
    mail: null,
    secrets: { secretKey: 'bench-secret-key-long-enough-0123456789', encryptionKey: randomBytes(32) },
    signup: 'open',
    trashRetentionDays: 30,
    maxUploadBytes: null,
    webRoot: null,
  };
  const app = await buildApp(config);
  const uuid = randomUUID();
  const created = await app.inject({
    method: 'POST',
    url: '/user-service/create',
    headers: { uuid },
    payload: { email: 'b@example.com', password: 'bench-password' },
  });
  const cookie = created.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const owner = created.json().user._id;
  const folder = (
    await app.inject({ method: 'POST', url: '/folder-service/create', headers: { uuid, cookie }, payload: { name: 'big', parent: '/' } })
  ).json();
  const words = ['invoice', 'report', 'holiday', 'scan', 'contract', 'photo', 'budget', 'notes', 'draft', 'summary'];
  const now = Date.now();
  const db = app.database.db;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < FILES; i += 500) {
      const rows = [];
      for (let j = i; j < Math.min(FILES, i + 500); j++) {
        const name = `${words[j % 10]}-${words[(j * 7) % 10]}-${j}.pdf`;
        rows.push({
          id: newId(),
          ownerId: owner,
          folderId: folder._id,
          filename: name,
          nameKey: name,
          size: 1000,
          contentType: 'application/pdf',
          mediaKind: null,
          sha256: 'x',
          storageKey: newId(),
          wrappedKey: 'x',
          uploadedAt: now - j * 1000,
          updatedAt: now,
          trashedAt: null,
          trashedVia: null,
          linkType: null,
          linkToken: null,
          thumbnailId: null,
        });
      }
      await trx.insertInto('file').values(rows).execute();
    }
  });
  async function measure(urls) {
    const times = [];
    for (const url of urls) {
      const t = performance.now();
      const r = await app.inject({ method: 'GET', url, headers: { cookie } });
      times.push(performance.now() - t);
      if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode}`);
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p99: percentile(times, 99) };
  }
  const pages = [];
  for (let i = 0; i < 300; i++) {
    const at = new Date(now - ((i * 331) % FILES) * 1000).toISOString();
    pages.push(
      `/file-service/list?parent=${folder._id}&limit=50&sortBy=${i % 2 ? 'date_desc' : 'alp_asc'}&startAt=true&startAtDate=${at}&startAtName=report-${i}`,
    );
  }
  const searches = [];
  for (let i = 0; i < 300; i++)
    searches.push(
      `/file-service/list?search=${encodeURIComponent(`${words[i % 10].slice(1, 5)}-${words[(i * 3) % 10].slice(0, 3)}`)}&limit=50`,
    );
  await measure(pages.slice(0, 20));
  const page = await measure(pages);
  const search = await measure(searches);
  await app.close();
  return { page, search };
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-bench-'));
try {
  const fmt = (n) => n.toFixed(1);
  console.log(`\n# drive benchmark (${SIZE / MB} MiB transfer, ${FILES} files listed), node ${process.version}`);
  const bare = await bareBaseline(dir);
  console.log(`bare node:http pipe       upload ${fmt(bare.up)} MB/s   download ${fmt(bare.down)} MB/s`);
  const api = await throughApi(dir);
  console.log(
    `through the API (AES-GCM) upload ${fmt(api.up)} MB/s (${fmt((api.up / bare.up) * 100)} % of bare)   download ${fmt(api.down)} MB/s (${fmt((api.down / bare.down) * 100)} % of bare)`,
  );
  console.log(
    `server peak RSS           at rest ${fmt(api.rssAtRest)} MB   after upload ${fmt(api.rssUp)} MB   after download ${fmt(api.rssDown)} MB`,
  );
  const latency = await listLatency(dir);
  console.log(`50-item page, ${FILES} files  p50 ${fmt(latency.page.p50)} ms   p99 ${fmt(latency.page.p99)} ms`);
  console.log(`name search, ${FILES} files   p50 ${fmt(latency.search.p50)} ms   p99 ${fmt(latency.search.p99)} ms`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
