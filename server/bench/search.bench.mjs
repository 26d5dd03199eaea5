// AI search: indexing throughput per kind of file (real pipeline: compute threads, OCR, models),
// request latency while indexing runs, and query latency over 100,000 indexed files of one user
// on SQLite and on PostgreSQL (BENCH_SEARCH_PG_URL, default the local server; skipped when it is
// unreachable). Prints figures; asserts nothing. BENCH_SEARCH_FILES changes the 100,000.
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { freshPostgres } from './support.mjs';

const dist = path.resolve(import.meta.dirname, '../dist');
const { buildApp } = await import(`${dist}/app.js`);
const { loadConfig } = await import(`${dist}/config.js`);
const { newId } = await import(`${dist}/security/ids.js`);
const { ComputePool } = await import(`${dist}/search/compute/pool.js`);
const { quantize } = await import(`${dist}/search/embed/quantize.js`);
const { LOCAL_MODEL_ID } = await import(`${dist}/search/embed/provider.js`);
const { ANALYSIS_VERSION } = await import(`${dist}/search/indexer.js`);

const FILES = Number(process.env.BENCH_SEARCH_FILES ?? 100_000);
const PER_KIND = 12;
const fixtures = path.resolve(import.meta.dirname, '../eval/fixtures');
const evaluation = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../eval/queries.json'), 'utf8'));

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (n) => n.toFixed(n < 10 ? 1 : 0);

function fixtureFiles(dir = fixtures) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? fixtureFiles(full) : [full];
  });
}

function kindOf(file) {
  if (file.includes('/Scans/')) return 'scanned document (OCR)';
  if (file.endsWith('.jpg')) return 'photo (EXIF, GPS)';
  if (file.endsWith('.mp4')) return 'video (ffprobe)';
  if (file.endsWith('.pdf')) return 'PDF';
  if (file.endsWith('.docx')) return 'DOCX';
  return 'plain text';
}

class Client {
  constructor(app) {
    this.app = app;
    this.uuid = randomUUID();
    this.cookie = '';
  }
  async call(method, url, payload, headers = {}) {
    const r = await this.app.inject({ method, url, payload, headers: { uuid: this.uuid, cookie: this.cookie, ...headers } });
    if (r.cookies.length) this.cookie = r.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
    return r.json();
  }
  upload(name, data) {
    const boundary = `----b${randomUUID()}`;
    const field = (n, v) => `--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`;
    const head = field('filename', name) + field('parent', '/') + field('currentID', 'b') + field('size', data.length);
    const body = Buffer.concat([
      Buffer.from(`${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return this.call('POST', '/file-service/upload', body, { 'content-type': `multipart/form-data; boundary=${boundary}` });
  }
}

const PG_URL = process.env.BENCH_SEARCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function withApp(work, dialect = 'sqlite') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-search-bench-'));
  const pgDb = dialect === 'postgres' ? await freshPostgres(PG_URL, 'nimbus_bench') : null;
  if (dialect === 'postgres' && !pgDb) return null;
  const env = pgDb
    ? { DATABASE_URL: pgDb.url, SECRET_KEY: 'bench-secret-key-bench-secret-key', ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64') }
    : {};
  const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', ...env }));
  try {
    return await work(app);
  } finally {
    await app.close();
    await pgDb?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Uploads PER_KIND files of one kind, then lets the background worker index them while a client keeps listing files. */
async function indexingThroughput(app, client, files) {
  const before = await app.database.db
    .selectFrom('searchEntry')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  for (let i = 0; i < PER_KIND; i++) {
    const file = files[i % files.length];
    await client.upload(`${i}-${path.basename(file)}`, readFileSync(file));
  }
  const target = Number(before.n) + PER_KIND;
  const started = performance.now();
  const pings = [];
  for (;;) {
    const t = performance.now();
    await client.call('GET', '/file-service/quick-list?limit=20');
    pings.push(performance.now() - t);
    const row = await app.database.db
      .selectFrom('searchEntry')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('itemType', '=', 'file')
      .executeTakeFirst();
    if (Number(row.n) >= target) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // Index jobs wait 2 s for a burst to settle; that wait is not work.
  const seconds = (performance.now() - started) / 1000 - 2;
  return { perSecond: PER_KIND / Math.max(seconds, 0.001), pings };
}

async function benchIndexing() {
  const byKind = new Map();
  for (const file of fixtureFiles()) byKind.set(kindOf(file), [...(byKind.get(kindOf(file)) ?? []), file]);
  return withApp(async (app) => {
    app.background.start();
    const client = new Client(app);
    await client.call('POST', '/user-service/create', { email: 'bench@example.com', password: 'bench-password' });
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const rows = [];
    const pings = [];
    // Warm the models (first use loads them) outside the measurement.
    await indexingThroughput(app, client, byKind.get('PDF').slice(0, 1));
    for (const [kind, files] of byKind) {
      const result = await indexingThroughput(app, client, files);
      rows.push([kind, result.perSecond]);
      pings.push(...result.pings);
    }
    loop.disable();
    pings.sort((a, b) => a - b);
    return { rows, pingP50: percentile(pings, 50), pingP99: percentile(pings, 99), loopP99: loop.percentile(99) / 1e6 };
  });
}

/** Real embeddings of a few hundred texts, spread into FILES vectors by small perturbations. */
async function syntheticVectors() {
  const texts = evaluation.queries.map((q) => q.query);
  const corpusWords = [
    ...new Set(
      readFileSync(path.resolve(import.meta.dirname, '../eval/corpus.mjs'), 'utf8')
        .toLowerCase()
        .match(/[a-z]{4,}/g),
    ),
  ];
  for (let i = 0; texts.length < 400; i++)
    texts.push(corpusWords.slice((i * 13) % (corpusWords.length - 12), ((i * 13) % (corpusWords.length - 12)) + 12).join(' '));
  const pool = new ComputePool(1);
  const base = await pool.run({ type: 'embed', texts });
  await pool.close();
  // Word frequencies of real text are Zipf-distributed: a vocabulary of 30,000 words where the
  // corpus's own words sit at shuffled ranks among made-up ones.
  const vocabulary = Array.from({ length: 30_000 }, (_, i) => `w${i.toString(36)}`);
  corpusWords.forEach((word, i) => (vocabulary[(i * 7919) % vocabulary.length] = word));
  const weights = vocabulary.map((_, r) => 1 / (r + 1));
  const cumulative = [];
  weights.reduce((sum, w, i) => (cumulative[i] = sum + w), 0);
  return { texts, base, vocabulary, cumulative };
}

async function benchQueries(dialect) {
  const { texts, base, vocabulary, cumulative } = await syntheticVectors();
  const total = cumulative[cumulative.length - 1];
  const zipfWord = () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo];
  };
  return withApp(async (app) => {
    const client = new Client(app);
    const { user } = await client.call('POST', '/user-service/create', { email: 'bench@example.com', password: 'bench-password' });
    const db = app.database.db;
    const now = Date.now();
    const loadStarted = performance.now();
    for (let i = 0; i < FILES; i += 500) {
      const files = [];
      const entries = [];
      for (let j = i; j < Math.min(FILES, i + 500); j++) {
        const id = newId();
        const b = j % base.length;
        const kind = ['document', 'photo', 'video', 'scan'][j % 4];
        const name = `${texts[b].split(' ').slice(0, 3).join('_')}_${j}.${kind === 'photo' || kind === 'scan' ? 'jpg' : kind === 'video' ? 'mp4' : 'pdf'}`;
        const body = [name, ...Array.from({ length: 80 }, zipfWord)].join(' ').toLowerCase();
        const vector = Float32Array.from(base[b], (v) => v + (random() - 0.5) * 0.04);
        files.push({
          id,
          ownerId: user._id,
          folderId: null,
          filename: name,
          nameKey: name.toLowerCase(),
          size: 1000,
          contentType: kind === 'photo' || kind === 'scan' ? 'image/jpeg' : kind === 'video' ? 'video/mp4' : 'application/pdf',
          mediaKind: kind === 'photo' || kind === 'scan' ? 'photo' : kind === 'video' ? 'video' : null,
          sha256: 'x',
          storageKey: newId(),
          wrappedKey: 'x',
          uploadedAt: now - j * 60_000,
          updatedAt: now,
          trashedAt: null,
          trashedVia: null,
          linkType: null,
          linkToken: null,
          thumbnailId: null,
        });
        entries.push({
          itemId: id,
          itemType: 'file',
          ownerId: user._id,
          kind,
          contentDate: now - j * 60_000,
          place: j % 7 === 0 ? 'Paris, France' : null,
          content: body,
          body,
          analysisVersion: ANALYSIS_VERSION,
          sourceUpdatedAt: now,
          modelId: LOCAL_MODEL_ID,
          embedding: quantize(vector),
          indexedAt: now - (FILES - j) * 50,
        });
      }
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('file').values(files).execute();
        await trx.insertInto('searchEntry').values(entries).execute();
      });
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const queries = evaluation.queries.map((q) => q.query);
    const t0 = performance.now();
    await client.call('POST', '/file-service/semantic-search', { query: queries[0] });
    const cold = performance.now() - t0;
    const times = [];
    for (let round = 0; round < 4; round++) {
      for (const query of queries) {
        const t = performance.now();
        await client.call('POST', '/file-service/semantic-search', { query });
        times.push(performance.now() - t);
      }
    }
    times.sort((a, b) => a - b);
    return { loadSeconds, cold, p50: percentile(times, 50), p99: percentile(times, 99), n: times.length, rss: process.memoryUsage().rss };
  }, dialect);
}

const only = process.env.BENCH_SEARCH_ONLY; // 'indexing' or 'queries'
console.log(`\n# AI search benchmark, node ${process.version}, ${os.availableParallelism()} cores`);
if (only !== 'queries') {
  const indexing = await benchIndexing();
  console.log(`indexing throughput (${PER_KIND} files per kind, ${Math.max(1, os.availableParallelism() - 1)} compute thread(s)):`);
  for (const [kind, perSecond] of indexing.rows) console.log(`  ${kind.padEnd(26)} ${fmt(perSecond)} files/s`);
  console.log(
    `requests while indexing: quick-list p50 ${fmt(indexing.pingP50)} ms, p99 ${fmt(indexing.pingP99)} ms; event-loop delay p99 ${fmt(indexing.loopP99)} ms`,
  );
}
if (only !== 'indexing') {
  for (const [dialect, label] of [
    ['sqlite', 'SQLite'],
    ['postgres', 'PostgreSQL'],
  ]) {
    const q = await benchQueries(dialect);
    if (!q) {
      console.log(`query latency on ${label}: skipped (no server at ${PG_URL})`);
      continue;
    }
    console.log(`query latency, ${FILES} indexed files of one user (${label}, ${q.n} queries of the evaluation set):`);
    console.log(`  first query (loads the vector cache) ${fmt(q.cold)} ms; then p50 ${fmt(q.p50)} ms, p99 ${fmt(q.p99)} ms`);
    console.log(`  (${FILES} synthetic entries written in ${fmt(q.loadSeconds)} s; process RSS ${fmt(q.rss / 1024 / 1024)} MiB)`);
  }
}
