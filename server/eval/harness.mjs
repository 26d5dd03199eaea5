// Uploads the evaluation drive into a fresh server, lets the background jobs index it, asks every
// query and scores the answers. Shared by `npm run eval:search` (built server) and the test suite.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { documents, photos, scans, videos } from './corpus.mjs';
import { realMedia } from './real-corpus.mjs';

const fixtures = path.join(import.meta.dirname, 'fixtures');
/** Where fetch-real-media.mjs renders the real photographs and clips. */
const realFiles = path.join(import.meta.dirname, '.real-media', 'files');
const realPaths = new Set(realMedia.map((m) => m.path));
const load = (name) => JSON.parse(readFileSync(path.join(import.meta.dirname, name), 'utf8'));
/** The first evaluation, written with the search and tuned on. */
export const evaluation = load('queries.json');
/** The evaluation on real photos and videos; every fifth query is held out from tuning. */
export const realEvaluation = load('queries-real.json');
const HELD_OUT_EVERY = 5;

/** A clock that only moves when told: queries see the evaluation's "now", jobs run when advanced. */
export function evaluationClock() {
  let now = Date.parse(evaluation.now);
  return { now: () => now, advance: (ms) => (now += ms) };
}

export function multipart(fields, file) {
  const boundary = `----nimbus${randomUUID()}`;
  const parts = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
  );
  parts.push(file, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export class Client {
  constructor(app) {
    this.app = app;
    this.uuid = randomUUID();
    this.cookies = new Map();
  }

  async request(method, url, payload, headers = {}) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await this.app.inject({
      method,
      url,
      payload,
      headers: { uuid: this.uuid, ...(cookie ? { cookie } : {}), ...headers },
    });
    for (const c of response.cookies) this.cookies.set(c.name, c.value);
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  }
}

/**
 * The real-photo test subset: the media of the small packages (scikit-image's sample photos and
 * MATE's nature photos), the first evaluation's subset files, and the queries answerable from them.
 */
const REAL_SUBSET_PACKAGES = new Set(['skimage', 'mate']);
export const realSubsetMedia = realMedia.filter((m) => REAL_SUBSET_PACKAGES.has(m.pkg)).map((m) => m.path);

/** Every corpus file, or only what the test subset needs (its queries' answers and some distractors). */
export function corpusFiles(subset, set = 'legacy') {
  const legacy = [...documents, ...scans, ...photos, ...videos].map((f) => f.path);
  const all = set === 'real' ? [...legacy, ...realPaths] : legacy;
  if (!subset) return all;
  if (set === 'real') return [...corpusFiles(true, 'legacy'), ...realSubsetMedia];
  const wanted = new Set(evaluation.subsetDistractors);
  for (const q of evaluation.queries.filter((q) => q.subset)) for (const e of q.expect) if (!e.startsWith('folder:')) wanted.add(e);
  return all.filter((f) => wanted.has(f));
}

/**
 * The drive folder id for a relative folder path ('.' is the root), creating missing folders on the
 * way down once each; `onCreate` hears of every folder made.
 */
export function folderMaker(client, onCreate = () => {}) {
  const folders = new Map();
  const folderFor = async (dir) => {
    if (dir === '.') return '/';
    if (!folders.has(dir)) {
      const parent = await folderFor(path.dirname(dir));
      const folder = await client.request('POST', '/folder-service/create', { name: path.basename(dir), parent });
      folders.set(dir, folder._id);
      onCreate(folder._id, dir);
    }
    return folders.get(dir);
  };
  return folderFor;
}

/**
 * `app` is a built server using `clock` from evaluationClock(). Returns per-query results and
 * the summary figures.
 */
export async function runEvaluation(app, clock, { subset = false, set = 'legacy', onProgress = () => {} } = {}) {
  const client = new Client(app);
  await client.request('POST', '/user-service/create', { email: `eval-${randomUUID()}@example.com`, password: 'evaluation' });
  const names = new Map();
  const folderFor = folderMaker(client, (id, dir) => names.set(id, `folder:${dir}`));
  const files = corpusFiles(subset, set);
  for (const file of files) {
    const parent = await folderFor(path.dirname(file));
    const data = readFileSync(path.join(realPaths.has(file) ? realFiles : fixtures, file));
    const form = multipart({ filename: path.basename(file), parent, currentID: 'e', size: String(data.length) }, data);
    const dto = await client.request('POST', '/file-service/upload', form.body, { 'content-type': form.contentType });
    names.set(dto._id, file);
  }
  onProgress(`uploaded ${files.length} files`);

  const started = performance.now();
  for (let idle = 0; idle < 2;) {
    clock.advance(10_000);
    idle = (await app.background.drainJobs()) === 0 ? idle + 1 : 0;
  }
  const indexSeconds = (performance.now() - started) / 1000;
  onProgress(`indexed in ${indexSeconds.toFixed(1)} s`);

  const present = new Set(files);
  const queries =
    set === 'real'
      ? realEvaluation.queries
          .map((q, i) => ({ ...q, heldOut: i % HELD_OUT_EVERY === HELD_OUT_EVERY - 1 }))
          .filter((q) => !subset || q.expect.every((e) => present.has(e)))
      : evaluation.queries.filter((q) => !subset || q.subset);
  const results = [];
  for (const q of queries) {
    const asked = performance.now();
    const answer = await client.request('POST', '/file-service/semantic-search', { query: q.query, userId: 'ignored' });
    const ms = performance.now() - asked;
    const fileNames = answer.files.map((f) => names.get(f._id) ?? f.filename);
    const folderNames = answer.folders.map((f) => names.get(f._id) ?? f.name);
    const wantsFolder = q.expect.some((e) => e.startsWith('folder:'));
    results.push({ ...score(q, wantsFolder ? [...folderNames, ...fileNames] : fileNames, folderNames), ms });
  }
  const summary =
    set === 'real'
      ? { tuning: summarize(results.filter((r) => !r.heldOut)), heldOut: summarize(results.filter((r) => r.heldOut)) }
      : summarize(results);
  return { set, results, summary, files: files.length, indexSeconds };
}

function score(q, ranked, folders) {
  const expected = new Set(q.expect);
  const top = ranked.slice(0, 5);
  const relevant = top.filter((r) => expected.has(r)).length;
  const first = ranked.findIndex((r) => expected.has(r));
  return {
    query: q.query,
    category: q.category ?? 'any',
    heldOut: q.heldOut ?? false,
    expect: q.expect,
    got: ranked,
    folders,
    empty: ranked.length === 0 && folders.length === 0,
    hit: first >= 0 && first < 5,
    precision: expected.size ? relevant / Math.min(5, expected.size) : 0,
    reciprocalRank: first >= 0 ? 1 / (first + 1) : 0,
  };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
};

/**
 * Ranking figures over the queries that have an answer; for those that have none, how often the
 * answer was empty (what the web shows as "No AI Results").
 */
function summarize(results) {
  const answerable = results.filter((r) => r.expect.length > 0);
  const none = results.filter((r) => r.expect.length === 0);
  const mean = (list, f) => (list.length ? list.reduce((s, r) => s + f(r), 0) / list.length : 0);
  const categories = {};
  for (const r of results) (categories[r.category] ??= []).push(r);
  return {
    queries: results.length,
    answerable: answerable.length,
    hitAt5: mean(answerable, (r) => (r.hit ? 1 : 0)),
    precisionAt5: mean(answerable, (r) => r.precision),
    mrr: mean(answerable, (r) => r.reciprocalRank),
    noAnswer: none.length,
    emptyAccuracy: mean(none, (r) => (r.empty ? 1 : 0)),
    falseEmpty: answerable.filter((r) => r.empty).length,
    latencyMs: {
      p50: percentile(
        results.map((r) => r.ms),
        50,
      ),
      p95: percentile(
        results.map((r) => r.ms),
        95,
      ),
    },
    byCategory: Object.fromEntries(
      Object.entries(categories).map(([name, list]) => [
        name,
        name === 'none'
          ? { queries: list.length, emptyAccuracy: mean(list, (r) => (r.empty ? 1 : 0)) }
          : { queries: list.length, hitAt5: mean(list, (r) => (r.hit ? 1 : 0)), mrr: mean(list, (r) => r.reciprocalRank) },
      ]),
    ),
  };
}

const pct = (x) => `${(x * 100).toFixed(1)} %`;

function figures(label, s) {
  const lines = [
    `${label}: ${s.queries} queries (${s.answerable} with an answer, ${s.noAnswer} without)`,
    `  right file in the top 5: ${pct(s.hitAt5)}   precision@5: ${s.precisionAt5.toFixed(3)}   MRR: ${s.mrr.toFixed(3)}`,
    `  no-answer queries answered empty: ${pct(s.emptyAccuracy)}   answerable queries answered empty: ${s.falseEmpty}`,
    `  latency per query: p50 ${s.latencyMs.p50.toFixed(1)} ms, p95 ${s.latencyMs.p95.toFixed(1)} ms`,
  ];
  for (const [name, c] of Object.entries(s.byCategory)) {
    lines.push(
      `    ${name.padEnd(9)} ${String(c.queries).padStart(3)} queries  ` +
        (name === 'none' ? `answered empty ${pct(c.emptyAccuracy)}` : `top 5 ${pct(c.hitAt5)}  MRR ${c.mrr.toFixed(2)}`),
    );
  }
  return lines;
}

/** The real-photo evaluation: per-query lines for the tuning part only; the held-out part in figures. */
function reportReal(run) {
  const lines = run.results
    .filter((r) => !r.heldOut)
    .map((r) => {
      const ok = r.expect.length ? r.hit : r.empty;
      const detail = ok
        ? ''
        : `\n       expected ${r.expect.slice(0, 3).join(', ') || '(nothing)'}\n       got      ${r.got.slice(0, 5).join(', ') || '(nothing)'}`;
      return `${ok ? 'ok  ' : 'MISS'} [${r.category}] "${r.query}"${detail}`;
    });
  lines.push('', `${run.files} files indexed in ${run.indexSeconds.toFixed(1)} s`);
  lines.push(...figures('tuning part', run.summary.tuning), ...figures('held-out part', run.summary.heldOut));
  return lines.join('\n');
}

export function report(run) {
  if (run.set === 'real') return reportReal(run);
  const lines = run.results.map(
    (r) =>
      `${r.hit ? 'ok  ' : 'MISS'} P@5 ${r.precision.toFixed(2)} RR ${r.reciprocalRank.toFixed(2)}  "${r.query}"${r.hit ? '' : `\n       expected ${r.expect.slice(0, 3).join(', ')}\n       got      ${r.got.slice(0, 5).join(', ') || '(nothing)'}`}`,
  );
  const s = run.summary;
  lines.push(
    '',
    `${run.files} files indexed in ${run.indexSeconds.toFixed(1)} s; ${s.queries} queries`,
    `right file in the top 5: ${(s.hitAt5 * 100).toFixed(1)} %`,
    `precision@5 (relevant in the top 5 / min(5, relevant)): ${s.precisionAt5.toFixed(3)}`,
    `MRR: ${s.mrr.toFixed(3)}`,
  );
  return lines.join('\n');
}
