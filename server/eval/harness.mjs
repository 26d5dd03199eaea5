// Uploads the evaluation drive into a fresh server, lets the background jobs index it, asks every
// query and scores the answers. Shared by `npm run eval:search` (built server) and the test suite.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { documents, photos, scans, videos } from './corpus.mjs';

const fixtures = path.join(import.meta.dirname, 'fixtures');
export const evaluation = JSON.parse(readFileSync(path.join(import.meta.dirname, 'queries.json'), 'utf8'));

/** A clock that only moves when told: queries see the evaluation's "now", jobs run when advanced. */
export function evaluationClock() {
  let now = Date.parse(evaluation.now);
  return { now: () => now, advance: (ms) => (now += ms) };
}

function multipart(fields, file) {
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

class Client {
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

/** Every corpus file, or only what the test subset needs (its queries' answers and some distractors). */
export function corpusFiles(subset) {
  const all = [...documents, ...scans, ...photos, ...videos].map((f) => f.path);
  if (!subset) return all;
  const wanted = new Set(evaluation.subsetDistractors);
  for (const q of evaluation.queries.filter((q) => q.subset)) for (const e of q.expect) if (!e.startsWith('folder:')) wanted.add(e);
  return all.filter((f) => wanted.has(f));
}

/**
 * `app` is a built server using `clock` from evaluationClock(). Returns per-query results and
 * the summary figures.
 */
export async function runEvaluation(app, clock, { subset = false, onProgress = () => {} } = {}) {
  const client = new Client(app);
  await client.request('POST', '/user-service/create', { email: `eval-${randomUUID()}@example.com`, password: 'evaluation' });
  const folders = new Map();
  const names = new Map();
  const files = corpusFiles(subset);
  for (const file of files) {
    const dir = path.dirname(file);
    if (dir !== '.' && !folders.has(dir)) {
      const folder = await client.request('POST', '/folder-service/create', { name: dir, parent: '/' });
      folders.set(dir, folder._id);
      names.set(folder._id, `folder:${dir}`);
    }
    const data = readFileSync(path.join(fixtures, file));
    const form = multipart(
      { filename: path.basename(file), parent: folders.get(dir) ?? '/', currentID: 'e', size: String(data.length) },
      data,
    );
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

  const results = [];
  for (const q of evaluation.queries.filter((q) => !subset || q.subset)) {
    const answer = await client.request('POST', '/file-service/semantic-search', { query: q.query, userId: 'ignored' });
    const fileNames = answer.files.map((f) => names.get(f._id) ?? f.filename);
    const folderNames = answer.folders.map((f) => names.get(f._id) ?? f.name);
    const wantsFolder = q.expect.some((e) => e.startsWith('folder:'));
    results.push(score(q, wantsFolder ? [...folderNames, ...fileNames] : fileNames, folderNames));
  }
  return { results, summary: summarize(results), files: files.length, indexSeconds };
}

function score(q, ranked, folders) {
  const expected = new Set(q.expect);
  const top = ranked.slice(0, 5);
  const relevant = top.filter((r) => expected.has(r)).length;
  const first = ranked.findIndex((r) => expected.has(r));
  return {
    query: q.query,
    expect: q.expect,
    got: ranked,
    folders,
    hit: first >= 0 && first < 5,
    precision: relevant / Math.min(5, expected.size),
    reciprocalRank: first >= 0 ? 1 / (first + 1) : 0,
  };
}

function summarize(results) {
  const mean = (f) => results.reduce((s, r) => s + f(r), 0) / results.length;
  return {
    queries: results.length,
    hitAt5: mean((r) => (r.hit ? 1 : 0)),
    precisionAt5: mean((r) => r.precision),
    mrr: mean((r) => r.reciprocalRank),
  };
}

export function report(run) {
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
