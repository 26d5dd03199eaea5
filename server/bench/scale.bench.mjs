// One account with 1,000,000 files in 10,000 folders (100 top folders of 99 subfolders each; one of
// them, "Archive", holds 100,000 files itself), written straight into the database, on SQLite and on
// PostgreSQL. The built server then runs in its own process on that data and the benchmark drives it
// over HTTP: p50/p99 of a page of 50 in the big folder, of the next page by cursor, of a name search
// across the drive, of the folder list, quick list and move-dialog list, and of opening the big
// folder; how long trashing and restoring the folder (100,000+ descendants) takes while a second
// account keeps listing its own small drive, and what those calls wait meanwhile; and in headless
// Chromium the time to the first painted rows of /home and of the big folder. Prints figures; asserts
// nothing. SCALE_FILES shrinks the drive, SCALE_DB picks `sqlite` and/or `postgres` (comma-separated),
// SCALE_PG_URL the PostgreSQL server, SCALE_PARTS picks `lists`, `browser` and/or `trash`,
// SCALE_TIMEOUT_MIN bounds the run, SCALE_SERVER_NODE_ARGS passes
// e.g. `--cpu-prof` to the server, SCALE_KEEP=1 leaves the generated data in place.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freshPostgres, signIn, signUp, startServer } from './support.mjs';

const dist = path.resolve(import.meta.dirname, '../dist');
const webRoot = path.resolve(import.meta.dirname, '../../web/dist');
const { openDatabase } = await import(`${dist}/db/database.js`);
const { newId } = await import(`${dist}/security/ids.js`);
const { sql } = await import('kysely');

const FILES = Number(process.env.SCALE_FILES ?? 1_000_000);
const DATABASES = (process.env.SCALE_DB ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const PG_URL = process.env.SCALE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TIMEOUT_MIN = Number(process.env.SCALE_TIMEOUT_MIN ?? 75);
const SERVER_NODE_ARGS = (process.env.SCALE_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** For diagnosis: leave the generated data (temp dir, PostgreSQL database) in place. */
const KEEP = process.env.SCALE_KEEP === '1';
const PARTS = new Set((process.env.SCALE_PARTS ?? 'lists,browser,trash').split(',').map((p) => p.trim()));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const TOP_FOLDERS = 100;
const SUBFOLDERS = 99;
const BIG_FILES = Math.round(FILES / 10);
const ROOT_FILES = Math.round(FILES / 1000);
const SAMPLES = 200;
const WARMUP = 20;
const MEASURE_BUDGET_MS = 20_000;
const PASSWORD = 'bench-password';

let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = (list) => list[Math.floor(random() * list.length)];
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (n) => (n === undefined ? '-' : n.toFixed(n < 10 ? 2 : n < 100 ? 1 : 0));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

// Anything the run leaves behind (servers, browsers, a PostgreSQL database, temp dirs) is undone by
// these, in reverse order, also when the time limit ends the run.
const cleanups = [];
async function cleanUp() {
  while (cleanups.length)
    await cleanups
      .pop()()
      .catch((err) => console.error(`cleanup: ${err.message}`));
}
const deadline = setTimeout(async () => {
  console.error(`scale: stopped after ${TIMEOUT_MIN} min (SCALE_TIMEOUT_MIN)`);
  await cleanUp();
  process.exit(1);
}, TIMEOUT_MIN * 60_000);
deadline.unref();
process.on('unhandledRejection', async (err) => {
  console.error(err);
  await cleanUp();
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    await cleanUp();
    process.exit(130);
  });
}

/** 1-minute load average, sampled every 2 s for the whole run. */
const load = [];
const loadTimer = setInterval(() => load.push(os.loadavg()[0]), 2000);
loadTimer.unref();
function loadSummary(from = 0) {
  const s = load.slice(from).sort((a, b) => a - b);
  if (s.length === 0) return `now ${os.loadavg()[0].toFixed(2)}`;
  return `min ${s[0].toFixed(2)}, median ${percentile(s, 50).toFixed(2)}, max ${s[s.length - 1].toFixed(2)}`;
}

// ---------------------------------------------------------------------------------------------
// The drive: rows as the app writes them (ids, lower-cased name keys, sizes, dates, media kinds).

const WORDS =
  'invoice report holiday contract photo budget notes draft summary receipt letter minutes agenda proposal thesis slides recipe ticket statement payslip insurance manual warranty lease offer quote order plan design sketch'.split(
    ' ',
  );
const TOPICS =
  'Projects Photos Work Family Finance Travel School Music Books Taxes House Car Health Clients Archive2 Misc Backups Recipes Garden Sports'.split(
    ' ',
  );
const KINDS = [
  { ext: 'pdf', type: 'application/pdf', media: null, weight: 30 },
  { ext: 'docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', media: null, weight: 15 },
  { ext: 'xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', media: null, weight: 8 },
  { ext: 'txt', type: 'text/plain', media: null, weight: 7 },
  { ext: 'jpg', type: 'image/jpeg', media: 'photo', weight: 30 },
  { ext: 'png', type: 'image/png', media: 'photo', weight: 5 },
  { ext: 'mp4', type: 'video/mp4', media: 'video', weight: 5 },
];
const KIND_TABLE = KINDS.flatMap((k) => Array(k.weight).fill(k));
const YEARS = 6 * 365 * 86_400_000;
const WRAPPED_KEY = randomBytes(60).toString('base64');

function fileRow(ownerId, folderId, filename, now) {
  const kind = pick(KIND_TABLE);
  const name = `${filename}.${kind.ext}`;
  return {
    id: newId(),
    ownerId,
    folderId,
    filename: name,
    nameKey: name.toLowerCase(),
    size: Math.floor(random() * (kind.media === 'video' ? 200e6 : 5e6)) + 100,
    contentType: kind.type,
    mediaKind: kind.media,
    sha256: randomBytes(32).toString('hex'),
    storageKey: newId(),
    wrappedKey: WRAPPED_KEY,
    uploadedAt: now - Math.floor(random() * YEARS),
    updatedAt: now,
  };
}

/** The folders of a drive: `top` root folders with `sub` subfolders each; the first is "Archive". */
function folderRows(ownerId, top, sub, now) {
  const tops = [];
  const all = [];
  for (let t = 0; t < top; t++) {
    const name = t === 0 ? 'Archive' : `${TOPICS[t % TOPICS.length]} ${Math.floor(t / TOPICS.length) + 1}`;
    // Archive was changed last: it leads the default (modified, newest first) folder order.
    const folder = {
      id: newId(),
      ownerId,
      parentId: null,
      name,
      nameKey: name.toLowerCase(),
      createdAt: now - YEARS,
      updatedAt: now - (t === 0 ? 0 : t * 60_000),
    };
    tops.push(folder);
    all.push(folder);
    for (let s = 0; s < sub; s++) {
      const subName = `${pick(WORDS)} ${2019 + (s % 7)} ${s}`;
      all.push({
        id: newId(),
        ownerId,
        parentId: folder.id,
        name: subName,
        nameKey: subName.toLowerCase(),
        createdAt: now - YEARS,
        updatedAt: now - s * 3_600_000,
      });
    }
  }
  return { tops, all };
}

const FILE_COLUMNS = [
  'id',
  'ownerId',
  'folderId',
  'filename',
  'nameKey',
  'size',
  'contentType',
  'mediaKind',
  'sha256',
  'storageKey',
  'wrappedKey',
  'uploadedAt',
  'updatedAt',
];
const FILE_TYPES = ['text', 'text', 'text', 'text', 'text', 'bigint', 'text', 'text', 'text', 'text', 'text', 'bigint', 'bigint'];
const MEDIA_COLUMNS = ['fileId', 'ownerId', 'status', 'error', 'processedAt'];
const MEDIA_TYPES = ['text', 'text', 'text', 'text', 'bigint'];
const snake = (c) => c.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);

/**
 * Writes rows in large batches, several per transaction: multi-row INSERTs on SQLite, and on
 * PostgreSQL one `INSERT … SELECT FROM unnest($1::text[], …)` per batch (column arrays instead of
 * thousands of bound parameters, close to COPY).
 */
async function insertFiles(db, dialect, rows) {
  // Photos and videos carry a recorded thumbnail outcome, as after the thumbnail job: without one the
  // backfill job would try to make thumbnails of bytes that are not there, loading the server.
  const media = rows
    .filter((r) => r.mediaKind !== null)
    .map((r) => ({
      fileId: r.id,
      ownerId: r.ownerId,
      status: 'skipped',
      error: 'scale bench: no stored bytes',
      processedAt: r.uploadedAt,
    }));
  if (dialect === 'sqlite') {
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insertInto('file')
        .values(rows.slice(i, i + 1000))
        .execute();
    for (let i = 0; i < media.length; i += 1000)
      await db
        .insertInto('fileMedia')
        .values(media.slice(i, i + 1000))
        .execute();
    return;
  }
  const unnest = (table, batch, columns, types) => {
    const arrays = columns.map((c, k) => sql`${batch.map((r) => r[c])}::${sql.raw(types[k])}[]`);
    return sql`insert into ${sql.raw(table)} (${sql.raw(columns.map(snake).join(', '))}) select * from unnest(${sql.join(arrays)})`.execute(
      db,
    );
  };
  for (let i = 0; i < rows.length; i += 10_000) await unnest('file', rows.slice(i, i + 10_000), FILE_COLUMNS, FILE_TYPES);
  for (let i = 0; i < media.length; i += 10_000) await unnest('file_media', media.slice(i, i + 10_000), MEDIA_COLUMNS, MEDIA_TYPES);
}

/** A drive of `files` files for `ownerId`: root files, the big folder, and the rest spread over every other folder. */
async function generateDrive(db, dialect, ownerId, { files, top, sub, big, rootFiles, label }) {
  const now = Date.now();
  const { tops, all } = folderRows(ownerId, top, sub, now);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < all.length; i += 500)
      await trx
        .insertInto('folder')
        .values(all.slice(i, i + 500))
        .execute();
  });
  const archive = tops[0];
  const others = all.filter((f) => f.id !== archive.id);
  const sample = { archive: [], anywhere: [] };
  const CHUNK = 50_000;
  for (let start = 0; start < files; start += CHUNK) {
    const rows = [];
    for (let n = start; n < Math.min(files, start + CHUNK); n++) {
      let row;
      if (n < big) row = fileRow(ownerId, archive.id, `scan-${String(n).padStart(6, '0')}`, now);
      else if (n < big + rootFiles) row = fileRow(ownerId, null, `${pick(WORDS)}-${pick(WORDS)}-${n}`, now);
      else row = fileRow(ownerId, others[n % others.length].id, `${pick(WORDS)}-${pick(WORDS)}-${n}`, now);
      rows.push(row);
      if (n < big && random() < (SAMPLES * 2) / big) sample.archive.push(row);
      if (random() < (SAMPLES * 2) / files) sample.anywhere.push(row);
    }
    await db.transaction().execute((trx) => insertFiles(trx, dialect, rows));
    if (label && process.stdout.isTTY) process.stdout.write(`  ${label}: ${Math.min(files, start + CHUNK)} files written\r`);
  }
  if (label && process.stdout.isTTY) process.stdout.write('\n');
  return { tops, folders: all, archive, sample };
}

// ---------------------------------------------------------------------------------------------
// HTTP measurements against the running server.

let fresh = 0;

function client(base, session) {
  const headers = { uuid: session.uuid, cookie: session.cookie };
  return async function call(url, { method = 'GET', body } = {}) {
    // A parameter the routes ignore, new for every read: the figures are the database's, not those
    // of an answer the server kept from the previous sample (it keeps list answers while a drive
    // does not change).
    if (method === 'GET') url += `${url.includes('?') ? '&' : '?'}fresh=${++fresh}`;
    const response = await fetch(base + url, {
      method,
      headers: body ? { ...headers, 'content-type': 'application/json' } : headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text.slice(0, 200)}`);
    return JSON.parse(text);
  };
}

/** Latency of `urls` (or of the promise `work(i)` makes), one request at a time, after a warm-up. */
async function measure(call, make, { check } = {}) {
  const times = [];
  // A slow call stops sampling after MEASURE_BUDGET_MS (with at least 10 samples), so the run stays bounded.
  const until = performance.now() + MEASURE_BUDGET_MS;
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const t = performance.now();
    const result = await make(i, call);
    const elapsed = performance.now() - t;
    if (check) check(result, i);
    if (i >= WARMUP || elapsed > 100) times.push(elapsed);
    if (times.length >= 10 && performance.now() > until) break;
  }
  times.sort((a, b) => a - b);
  return { n: times.length, p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1] };
}

/** A second account's browsing (its folders, files and quick list) from `workers` parallel loops until `stop()`. */
function backgroundBrowsing(call, drive, workers = 2) {
  const times = [];
  let running = true;
  const urls = [
    '/file-service/list?parent=/&limit=50&sortBy=date_desc',
    '/folder-service/list?parent=/&sortBy=date_desc',
    '/file-service/quick-list?limit=20',
    ...drive.folders.slice(0, 10).map((f) => `/file-service/list?parent=${f.id}&limit=50&sortBy=alp_asc`),
  ];
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let i = w; running; i++) {
      const t0 = performance.now();
      const ok = await call(urls[i % urls.length]).then(
        () => true,
        () => false,
      );
      const t1 = performance.now();
      times.push({ t0, t1, ok });
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return times;
    },
  };
}

function summarize(times, from, to) {
  const calls = times.filter((c) => c.t1 > from && c.t0 < to);
  const during = calls.map((c) => c.t1 - c.t0).sort((a, b) => a - b);
  const failed = calls.filter((c) => !c.ok).length;
  return { n: during.length, failed, p50: percentile(during, 50), p99: percentile(during, 99), max: during[during.length - 1] };
}

/** Trashes or restores the big folder while the other account browses; how long it took and what the other account waited. */
async function underLoad(call, other, otherDrive, url, id) {
  const browsing = backgroundBrowsing(other, otherDrive);
  await new Promise((r) => setTimeout(r, 1000));
  const t0 = performance.now();
  const error = await call(url, { method: 'PATCH', body: { id } }).then(
    () => null,
    (err) => err.message.slice(0, 160),
  );
  const t1 = performance.now();
  await new Promise((r) => setTimeout(r, 500));
  const times = await browsing.stop();
  return {
    ms: t1 - t0,
    error,
    before: summarize(
      times.filter((c) => c.t1 <= t0),
      0,
      t0,
    ),
    during: summarize(times, t0, t1),
  };
}

async function listFigures(base, big, bigDrive) {
  const call = client(base, big);
  const { archive, tops, sample } = bigDrive;
  const row = (label, r, target) =>
    console.log(
      `  ${label.padEnd(58)} p50 ${fmt(r.p50).padStart(6)} ms  p99 ${fmt(r.p99).padStart(6)} ms${r.n < SAMPLES ? ` (n=${r.n})` : ''}${target ? `  (target p50 < ${target} ms: ${r.p50 < target ? 'met' : 'MISSED'})` : ''}`,
    );
  const sorts = ['date_desc', 'alp_asc', 'date_asc', 'alp_desc'];
  const fifty = (files) => {
    if (files.length !== 50) throw new Error(`a page of ${files.length} files`);
  };

  row(
    'page of 50, big folder (4 sort orders)',
    await measure(call, (i) => call(`/file-service/list?parent=${archive.id}&limit=50&sortBy=${sorts[i % 4]}`), { check: fifty }),
    5,
  );
  // The next page after a file somewhere in the folder: SPEC's cursor (its date and name), then the
  // web app's (with the id as tie-breaker).
  const cursors = sample.archive.slice(0, SAMPLES);
  const cursorUrl = (i, withId) => {
    const f = cursors[i % cursors.length];
    const at = encodeURIComponent(new Date(f.uploadedAt).toISOString());
    const id = withId ? `&startAtId=${f.id}` : '';
    return `/file-service/list?parent=${archive.id}&limit=50&sortBy=${sorts[i % 4]}&startAt=true&startAtDate=${at}&startAtName=${encodeURIComponent(f.filename)}${id}`;
  };
  row('next page by cursor (startAtDate + startAtName)', await measure(call, (i) => call(cursorUrl(i, false))), 5);
  row('next page by cursor (+ startAtId, as the web app sends)', await measure(call, (i) => call(cursorUrl(i, true))), 5);

  // Name searches across the drive: words in tens of thousands of names, rarer fragments, and one file's exact name.
  const common = WORDS.slice(0, 12);
  row(
    'name search, a common word (~7 % of files match)',
    await measure(call, (i) => call(`/file-service/list?search=${common[i % 12]}&limit=50`)),
    20,
  );
  const rare = sample.anywhere.map((f) =>
    f.filename
      .replace(/\.[a-z0-9]+$/, '')
      .split('-')
      .pop(),
  );
  row(
    'name search, a number (a few files match)',
    await measure(call, (i) => call(`/file-service/list?search=${rare[i % rare.length]}&limit=50`)),
    20,
  );
  const exact = sample.anywhere.map((f) => encodeURIComponent(f.filename));
  row(
    'name search, a whole file name (one match)',
    await measure(call, (i) => call(`/file-service/list?search=${exact[i % exact.length]}&limit=50`)),
    20,
  );
  row(
    'name search, 2 letters in many names',
    await measure(call, (i) => call(`/file-service/list?search=${['ab', 'ce', 'or', 'ip', 'an', 'et'][i % 6]}&limit=50`)),
    20,
  );
  // Before SQLite's trigram index learnt the ends of names, these read every file of the drive.
  row(
    'name search, 1 or 2 characters in no name',
    await measure(call, (i) => call(`/file-service/list?search=${encodeURIComponent(['qz', 'xj', 'zv', 'jk', 'ж', 'ю'][i % 6])}&limit=50`)),
    20,
  );
  row(
    'search dropdown (suggested-list), a common word',
    await measure(call, (i) => call(`/file-service/suggested-list?search=${common[i % 12]}`)),
    20,
  );

  row('folder-service/list, root (100 folders)', await measure(call, (i) => call(`/folder-service/list?parent=/&sortBy=${sorts[i % 4]}`)));
  row(
    'folder-service/list, a top folder (99 subfolders)',
    await measure(call, (i) => call(`/folder-service/list?parent=${tops[1 + (i % (tops.length - 1))].id}&sortBy=${sorts[i % 4]}`)),
  );
  row('file-service/quick-list (20 most recent)', await measure(call, () => call('/file-service/quick-list?limit=20')));
  row(
    'move-folder-list, root, moving a top folder (100-folder subtree)',
    await measure(call, (i) =>
      call(`/folder-service/move-folder-list?parent=/&currentParent=/&folderIDs[]=${tops[1 + (i % (tops.length - 1))].id}`),
    ),
  );
  const subOf = (top) => bigDrive.folders.find((f) => f.parentId === top.id);
  row(
    'move-folder-list, in a top folder, moving one subfolder',
    await measure(call, (i) => {
      const top = tops[1 + (i % (tops.length - 1))];
      return call(`/folder-service/move-folder-list?parent=${top.id}&currentParent=${top.id}&folderIDs[]=${subOf(top)?.id ?? top.id}`);
    }),
  );
  // Opening the big folder: the three reads the web app makes at once.
  row(
    'open the big folder (info + subfolders + first 50 files)',
    await measure(call, () =>
      Promise.all([
        call(`/folder-service/info/${archive.id}`),
        call(`/folder-service/list?parent=${archive.id}&sortBy=date_desc`),
        call(`/file-service/list?parent=${archive.id}&limit=50&sortBy=date_desc`),
      ]),
    ),
  );
}

/** Trashes and restores the big folder while the second account browses its own drive. */
async function trashFigures(base, big, small, bigDrive, smallDrive) {
  const call = client(base, big);
  const other = client(base, small);
  const { archive } = bigDrive;
  const descendants = bigDrive.folders.filter((f) => f.parentId === archive.id).length;
  const other50 = (s) =>
    `n=${s.n}${s.failed ? ` (${s.failed} failed)` : ''}, p50 ${fmt(s.p50)} ms, p99 ${fmt(s.p99)} ms, max ${fmt(s.max)} ms`;
  const report = (label, r) => {
    console.log(`  ${label}: ${fmt(r.ms)} ms${r.error ? `, FAILED: ${r.error}` : ''}`);
    console.log(`    other account's list calls meanwhile: ${other50(r.during)}  (idle before: ${other50(r.before)})`);
  };
  // Alone first: no other request waits, as on a drive with one person using it.
  const alone = async (url) => {
    const t0 = performance.now();
    await call(url, { method: 'PATCH', body: { id: archive.id } });
    return performance.now() - t0;
  };
  const aloneTrash = await alone('/folder-service/trash');
  const aloneRestore = await alone('/folder-service/restore');
  console.log(`  trash the big folder with no other request: ${fmt(aloneTrash)} ms; restore it: ${fmt(aloneRestore)} ms`);
  const trash = await underLoad(call, other, smallDrive, '/folder-service/trash', archive.id);
  report(`trash the big folder (${BIG_FILES} files + ${descendants} subfolders and their files)`, trash);
  if (trash.error) return;
  const gone = await call(`/file-service/list?parent=/&search=scan-000001&limit=50`);
  if (gone.length !== 0) throw new Error('a file of the trashed folder still shows in search');
  const restore = await underLoad(call, other, smallDrive, '/folder-service/restore', archive.id);
  report('restore it', restore);
  if (restore.error) return;
  const back = await call(`/file-service/list?parent=${archive.id}&limit=50`);
  if (back.length !== 50) throw new Error('the restored folder lists no files');
}

// ---------------------------------------------------------------------------------------------
// Headless Chromium: time to the first painted rows.

/* global window, document, requestAnimationFrame, MutationObserver -- in functions that run in the page */

async function browserFigures(base, email, archive) {
  if (!existsSync(CHROMIUM)) return [`  browser: skipped, no Chromium at ${CHROMIUM}`];
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  cleanups.push(() => browser.close());
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(60_000);
  // Marks, in page time (ms since navigation start), the animation frame after the first folder
  // card, the first file row, and the first row of the big folder ("scan-…") entered the page.
  await context.addInitScript(() => {
    const marks = { folder: 0, file: 0, big: 0, click: 0 };
    window.__scale = marks;
    const seen = {};
    const frameAfter = (key) => {
      if (seen[key]) return;
      seen[key] = true;
      requestAnimationFrame(() => (marks[key] = performance.now()));
    };
    const check = () => {
      if (document.querySelector('[aria-label="Folders"] [role="option"]')) frameAfter('folder');
      const file = document.querySelector('[aria-label="Files"] [role="option"]');
      if (file) frameAfter('file');
      if (file?.getAttribute('aria-label')?.startsWith('scan-')) frameAfter('big');
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
    document.addEventListener('click', () => (marks.click = performance.now()), true);
  });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL('**/home');

  const marks = () => page.evaluate(() => window.__scale);
  const homeFiles = [];
  const homeFolders = [];
  const opened = [];
  const deepLink = [];
  for (let i = 0; i < 6; i++) {
    await page.goto('/home');
    await page.waitForFunction(() => window.__scale.file > 0 && window.__scale.folder > 0);
    const m = await marks();
    homeFiles.push(m.file);
    homeFolders.push(m.folder);
    // Open the big folder as a user does: a double click on its card.
    await page.locator('[aria-label="Folders"] [role="option"][aria-label="Archive"]').dblclick();
    await page.waitForFunction(() => window.__scale.big > 0);
    const o = await marks();
    opened.push(o.big - o.click);
    await page.goto(`/folder/${archive.id}`);
    await page.waitForFunction(() => window.__scale.big > 0);
    deepLink.push((await marks()).big);
  }
  await browser.close();
  cleanups.pop();
  // The first load fills the HTTP cache; the figures are the median of the other five, with the first shown apart.
  const median = (list) => [...list.slice(1)].sort((a, b) => a - b)[2];
  return [
    `  /home, first file row painted (navigation start → frame)         ${fmt(median(homeFiles))} ms  (first load ${fmt(homeFiles[0])} ms)`,
    `  /home, first folder card painted                                  ${fmt(median(homeFolders))} ms  (first load ${fmt(homeFolders[0])} ms)`,
    `  open the big folder by double click → its first rows painted      ${fmt(median(opened))} ms  (first ${fmt(opened[0])} ms)`,
    `  load /folder/{big} directly → its first rows painted              ${fmt(median(deepLink))} ms  (first ${fmt(deepLink[0])} ms)`,
  ];
}

// ---------------------------------------------------------------------------------------------

async function runOn(dialect) {
  const loadFrom = load.length;
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-scale-'));
  if (KEEP) console.log(`  (SCALE_KEEP: the data stays in ${dataDir})`);
  else cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  let env = { SCRUB_INTERVAL_MS: '0', WEB_ROOT: webRoot };
  let dbConfig = { driver: 'sqlite', path: path.join(dataDir, 'nimbus.sqlite') };
  if (dialect === 'postgres') {
    const pgDb = await freshPostgres(PG_URL, 'nimbus_scale');
    if (!pgDb) {
      console.log(`\n## ${label}: skipped (no server at ${PG_URL})`);
      return;
    }
    if (KEEP) console.log(`  (SCALE_KEEP: the database stays at ${pgDb.url})`);
    cleanups.push(() => (KEEP ? pgDb.close() : pgDb.drop()));
    env = {
      ...env,
      DATABASE_URL: pgDb.url,
      SECRET_KEY: 'scale-bench-secret-key-0123456789abcdef',
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    };
    dbConfig = { driver: 'postgres', url: pgDb.url };
  }

  // The server creates the schema and both accounts; then the drives go straight into the database.
  let server = await startServer({ dataDir, env });
  const big = await signUp(server.base);
  const small = await signUp(server.base);
  await server.stop();

  const started = performance.now();
  const handle = openDatabase(dbConfig);
  if (dialect === 'sqlite') await sql`pragma cache_size = -500000`.execute(handle.db);
  const bigDrive = await generateDrive(handle.db, dialect, big.id, {
    files: FILES,
    top: TOP_FOLDERS,
    sub: SUBFOLDERS,
    big: BIG_FILES,
    rootFiles: ROOT_FILES,
    label,
  });
  const smallDrive = await generateDrive(handle.db, dialect, small.id, { files: 2000, top: 10, sub: 2, big: 200, rootFiles: 100 });
  const generated = performance.now() - started;
  // PostgreSQL's autovacuum would analyze the new rows shortly; do it now rather than measure before it does.
  if (dialect === 'postgres') await sql`vacuum analyze`.execute(handle.db);
  const settled = performance.now() - started;
  await handle.close();

  server = await startServer({ dataDir, env, nodeArgs: SERVER_NODE_ARGS });
  cleanups.push(() => server.stop());
  const bigSession = await signIn(server.base, big.email);
  const smallSession = await signIn(server.base, small.email);
  console.log(`\n## ${label}: ${FILES} files in ${bigDrive.folders.length} folders (one with ${BIG_FILES} files), node ${process.version}`);
  console.log(
    `  generated in ${seconds(generated)}${dialect === 'postgres' ? ` (+ vacuum analyze: ${seconds(settled - generated)})` : ''}; second account: ${2000} files in ${smallDrive.folders.length} folders`,
  );
  let phase = performance.now();
  if (PARTS.has('lists')) {
    await listFigures(server.base, bigSession, bigDrive);
    console.log(`  (HTTP list measurements took ${seconds(performance.now() - phase)})`);
  }
  phase = performance.now();
  if (PARTS.has('browser')) {
    for (const line of await browserFigures(server.base, big.email, bigDrive.archive)) console.log(line);
    console.log(`  (browser measurements took ${seconds(performance.now() - phase)})`);
  }
  if (PARTS.has('trash')) await trashFigures(server.base, bigSession, smallSession, bigDrive, smallDrive);
  console.log(`  load average (1 min) during the ${label} run: ${loadSummary(loadFrom)}`);
  await cleanUp();
}

const runStarted = performance.now();
console.log(
  `\n# scale benchmark: ${FILES} files, ${os.availableParallelism()} cores, load average at start ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
try {
  for (const dialect of DATABASES) await runOn(dialect);
} finally {
  await cleanUp();
  clearInterval(loadTimer);
  clearTimeout(deadline);
}
console.log(`\nwhole run ${seconds(performance.now() - runStarted)}; load average (1 min) over it: ${loadSummary()}`);
