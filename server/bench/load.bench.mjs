// `npm run bench load`: LOAD_USERS (200) simulated users for LOAD_SECONDS (600) against the built
// server in its own process(es), each a seeded session of what the web app does (browse, page, search,
// upload, download whole and by Range, thumbnails, links, share links, rename, move, trash, restore)
// with think times. Prints requests by route and status, errors, latency percentiles per kind of
// route, throughput, the servers' RSS over the run and the load average; exits non-zero on any 5xx,
// unexpected 4xx, connection error or wrong bytes. LOAD_SEED replays the choices (not the timing).
// LOAD_TOPOLOGY=pg-s3-2 runs two servers sharing a scratch PostgreSQL database and an s3rver bucket,
// each request of a user going to either (sessions live in the database).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './support.mjs';

const USERS = Number(process.env.LOAD_USERS ?? 200);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 600);
const SEED = Number(process.env.LOAD_SEED ?? Math.floor(Math.random() * 2 ** 31));
const TOPOLOGY = process.env.LOAD_TOPOLOGY ?? 'sqlite';
const PG_ADMIN_URL = process.env.NIMBUS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Users arrive spread over the first tenth of the run (at most 30 s), then think 0.5–4 s between actions. */
const RAMP_MS = Math.min(30_000, SECONDS * 100);
const THINK_MS = [500, 4000];
const PAGE = 50;
const WORDS = 'report invoice holiday budget notes photo draft summary plan scan receipt meeting family'.split(' ');

const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int, pick: (list) => list[int(0, list.length - 1)], chance: (p) => next() < p };
}

// ---------------------------------------------------------------------------------------------
// Figures.

/** Set once the servers answer: the run's clock. */
let started = Infinity;
let deadline = Infinity;
const running = () => Date.now() < deadline;
const stats = { requests: 0, bytesUp: 0, bytesDown: 0, byRoute: new Map(), latency: new Map(), errors: new Map(), samples: [] };

function countError(kind, detail) {
  stats.errors.set(kind, (stats.errors.get(kind) ?? 0) + 1);
  if (stats.samples.length < 20) stats.samples.push(`${kind}: ${detail}`);
}

/**
 * One HTTP exchange, timed to the last byte of the answer and counted by route and status. A status
 * outside `expect` is an error (5xx, or an unexpected 4xx); so is a failed connection or a timeout.
 * Answers `{status, headers, body}` or null.
 */
async function exchange(kind, route, url, { method = 'GET', headers = {}, body, expect = [200] } = {}) {
  const t0 = performance.now();
  stats.requests++;
  let response;
  let bytes;
  try {
    response = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(60_000) });
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (err) {
    const key = `${route} ERR`;
    stats.byRoute.set(key, (stats.byRoute.get(key) ?? 0) + 1);
    countError('connection', `${method} ${url}: ${err.cause?.code ?? err.name} ${err.message}`);
    return null;
  }
  const ms = performance.now() - t0;
  (stats.latency.get(kind) ?? stats.latency.set(kind, []).get(kind)).push(ms);
  const key = `${route} ${response.status}`;
  stats.byRoute.set(key, (stats.byRoute.get(key) ?? 0) + 1);
  stats.bytesDown += bytes.length;
  if (!expect.includes(response.status)) {
    const what = response.status >= 500 ? '5xx' : 'unexpected 4xx';
    countError(what, `${method} ${url} → ${response.status} ${bytes.subarray(0, 300)}`);
  }
  return { status: response.status, headers: response.headers, body: bytes, ok: expect.includes(response.status) };
}

const json = (answer) => (answer?.ok ? JSON.parse(answer.body.toString()) : null);

// ---------------------------------------------------------------------------------------------
// Content.

const noise = randomBytes(4 * 1024 * 1024);
const sharp = (await import('sharp')).default;
/** A few real JPEGs (so thumbnails are made), 3–70 KB. */
const images = await Promise.all(
  [160, 640, 1024, 1600].map((width, i) =>
    sharp(randomBytes(width * Math.round(width * 0.75) * 3), { raw: { width, height: Math.round(width * 0.75), channels: 3 } })
      .blur(2 + i)
      .jpeg({ quality: 70 })
      .toBuffer(),
  ),
);

// ---------------------------------------------------------------------------------------------
// One simulated user: a cookie jar, a model of its drive and a seeded choice of actions.

class User {
  constructor(index, servers) {
    this.rand = prng(SEED + index * 7919);
    this.servers = servers;
    this.uuid = randomUUID();
    this.cookies = new Map();
    this.files = new Map();
    this.folders = new Map();
    this.n = 0;
  }

  server() {
    return this.rand.pick(this.servers).base;
  }

  /** An authenticated call as the web app makes it: browser id, cookies, and the cookies kept. */
  async call(kind, route, pathAndQuery, { base = this.server(), json: payload, form, ...init } = {}) {
    const headers = { uuid: this.uuid, cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...init.headers };
    let body;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(payload);
    } else if (form) body = form;
    const answer = await exchange(kind, route, `${base}${pathAndQuery}`, { ...init, headers, body });
    for (const line of answer?.headers.getSetCookie() ?? []) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1));
    }
    return answer;
  }

  /** A visitor without the owner's cookies (a shared link opened elsewhere). */
  visit(kind, route, pathAndQuery, init = {}) {
    return exchange(kind, route, `${this.server()}${pathAndQuery}`, init);
  }

  name(ext) {
    return `${this.rand.pick(WORDS)} ${this.rand.pick(WORDS)} ${++this.n}.${ext}`;
  }

  live(item) {
    for (let at = item; at; at = this.folders.get(at.parent)) if (at.trashed) return false;
    return true;
  }
  liveFiles(filter = () => true) {
    return [...this.files.values()].filter((f) => this.live(f) && filter(f));
  }
  liveFolders() {
    return [...this.folders.values()].filter((f) => this.live(f));
  }
  /** Trashed items the trash view shows: trashed themselves, no trashed folder above. */
  trashTop(map) {
    return [...map.values()].filter((i) => i.trashed && this.live({ parent: i.parent }));
  }
  parentChoice() {
    const folders = this.liveFolders();
    return folders.length && this.rand.chance(0.6) ? this.rand.pick(folders).id : '/';
  }

  addFile(dto, data) {
    const f = { id: dto._id, name: dto.filename, parent: dto.metadata.parent, data, trashed: false, image: /\.jpg$/.test(dto.filename) };
    this.files.set(f.id, f);
    return f;
  }
  addFolder(dto) {
    this.folders.set(dto._id, { id: dto._id, name: dto.name, parent: dto.parent ?? '/', trashed: false });
  }

  async signUp() {
    const base = this.server();
    const email = `load-${this.uuid}@example.com`;
    const created = await this.call('sign-up', 'POST /user-service/create', '/user-service/create', {
      base,
      method: 'POST',
      json: { email, password: 'load-password' },
      expect: [201],
    });
    this.refreshedAt = Date.now();
    return created?.ok;
  }

  async session() {
    await this.call('browse', 'GET /user-service/user', '/user-service/user');
    while (running()) {
      if (Date.now() - this.refreshedAt > 15 * 60_000) await this.refresh();
      const action = this.pickAction();
      await this[action]();
      await sleep(Math.min(this.rand.int(...THINK_MS), deadline - Date.now()));
    }
  }

  pickAction() {
    let roll = this.rand.next() * TOTAL_WEIGHT;
    for (const [action, weight] of ACTIONS) if ((roll -= weight) < 0) return action;
    return ACTIONS[0][0];
  }

  // ----- browsing -------------------------------------------------------------------------------

  async home() {
    const sortBy = this.rand.pick(['date_desc', 'date_desc', 'date_asc', 'alp_asc', 'alp_desc']);
    const base = this.server();
    await Promise.all([
      this.call('browse', 'GET /file-service/quick-list', '/file-service/quick-list?limit=20', { base }),
      this.call('browse', 'GET /folder-service/list', `/folder-service/list?parent=%2F&sortBy=${sortBy}`, { base }),
      this.pages('/', sortBy, base),
    ]);
  }

  /**
   * Every page of a folder's files, by cursor, as the browser's endless scroll loads them: together
   * exactly the live files this user has there, each once.
   */
  async pages(parent, sortBy, base) {
    let cursor = '';
    const seen = new Set();
    for (let page = 0; page < 20 && running(); page++) {
      const q = `parent=${encodeURIComponent(parent)}&sortBy=${sortBy}&limit=${PAGE}${cursor}`;
      const list = json(await this.call('browse', 'GET /file-service/list', `/file-service/list?${q}`, { base }));
      if (!list) return;
      for (const f of list) seen.add(f._id);
      if (list.length < PAGE) {
        const expected = this.liveFiles((f) => f.parent === parent);
        if (seen.size !== expected.length || expected.some((f) => !seen.has(f.id))) {
          countError('wrong answer', `pages of ${parent} (${sortBy}) hold ${seen.size} files, expected ${expected.length}`);
        }
        return;
      }
      const last = list[list.length - 1];
      cursor = `&startAt=true&startAtDate=${encodeURIComponent(last.uploadDate)}&startAtName=${encodeURIComponent(last.filename)}&startAtId=${last._id}`;
      await sleep(this.rand.int(200, 1500));
    }
  }

  async openFolder() {
    const folders = this.liveFolders();
    if (!folders.length) return this.home();
    const folder = this.rand.pick(folders);
    const base = this.server();
    await Promise.all([
      this.call('browse', 'GET /folder-service/info/:id', `/folder-service/info/${folder.id}`, { base }),
      this.call('browse', 'GET /folder-service/list', `/folder-service/list?parent=${folder.id}&sortBy=date_desc`, { base }),
      this.pages(folder.id, this.rand.pick(['date_desc', 'alp_asc']), base),
    ]);
  }

  async info() {
    const files = this.liveFiles();
    if (files.length) await this.call('browse', 'GET /file-service/info/:id', `/file-service/info/${this.rand.pick(files).id}`);
  }

  async account() {
    await this.call('browse', 'GET /user-service/user-detailed', '/user-service/user-detailed');
  }

  async search() {
    const items = [...this.liveFiles(), ...this.liveFolders()];
    if (!items.length) return;
    const item = this.rand.pick(items);
    // A word of a real name: the suggestions must hold at least that item.
    const term = this.rand.pick(item.name.split(/[ .]/).filter((w) => w.length > 2)) ?? item.name;
    const found = json(
      await this.call('search', 'GET /file-service/suggested-list', `/file-service/suggested-list?search=${encodeURIComponent(term)}`),
    );
    if (found && found.fileList.length + found.folderList.length === 0)
      countError('wrong answer', `no suggestion for "${term}" (${item.name})`);
  }

  async gallery() {
    const base = this.server();
    await this.call('browse', 'GET /file-service/list (media)', '/file-service/list?mediaMode=true&mediaFilter=photos&limit=100', { base });
    for (const file of this.liveFiles((f) => f.image).slice(-6)) await this.thumbnail(file, base);
  }

  async thumbnail(file, base) {
    if (!file.thumb) {
      const dto = json(await this.call('browse', 'GET /file-service/info/:id', `/file-service/info/${file.id}`, { base }));
      if (!dto?.metadata.hasThumbnail) return; // not made yet: the background job is still at it
      file.thumb = dto.metadata.thumbnailID;
    }
    const answer = await this.call('thumbnail', 'GET /file-service/thumbnail/:id', `/file-service/thumbnail/${file.thumb}`, { base });
    if (answer?.ok && !answer.headers.get('content-type')?.startsWith('image/'))
      countError('wrong answer', `thumbnail ${file.thumb} is ${answer.headers.get('content-type')}`);
  }

  // ----- transfers -------------------------------------------------------------------------------

  async upload() {
    const roll = this.rand.next();
    const [kind, data, ext] =
      roll < 0.05
        ? ['upload (1–4 MB)', this.slice(this.rand.int(1024, 4096) * 1024), 'bin']
        : roll < 0.25
          ? ['upload (small)', this.rand.pick(images), 'jpg']
          : ['upload (small)', this.slice(this.rand.int(1, 64) * 1024), this.rand.pick(['txt', 'pdf', 'docx'])];
    const filename = this.name(ext);
    const parent = this.parentChoice();
    const form = new FormData();
    form.append('filename', filename);
    form.append('parent', parent);
    form.append('currentID', randomUUID());
    form.append('size', String(data.length));
    form.append('file', new Blob([data]), filename);
    stats.bytesUp += data.length;
    const dto = json(await this.call(kind, 'POST /file-service/upload', '/file-service/upload', { method: 'POST', form, expect: [201] }));
    if (dto) this.addFile(dto, data);
  }

  /** A dragged-in folder of 5–70 small files, the web app's folder upload. */
  async uploadFolder() {
    const count = this.rand.int(5, 70);
    const top = `${this.rand.pick(WORDS)} folder ${++this.n}`;
    const parent = this.parentChoice();
    const form = new FormData();
    form.append('parent', parent);
    form.append('total-files', String(count));
    const parts = [];
    for (let i = 0; i < count; i++) {
      const data = this.slice(this.rand.int(1, 8) * 512);
      const name = this.name('txt');
      parts.push({ name, data });
      form.append('file-data', JSON.stringify({ name, size: data.length, type: 'text/plain', path: `${top}/${name}`, index: i }));
      stats.bytesUp += data.length;
    }
    for (const { name, data } of parts) form.append('file', new Blob([data]), name);
    const done = json(
      await this.call('upload (folder)', 'POST /folder-service/upload', '/folder-service/upload', { method: 'POST', form, expect: [201] }),
    );
    if (!done) return;
    for (const folder of done.folders) this.addFolder(folder);
    for (const file of done.files) this.addFile(file, parts.find((p) => p.name === file.filename)?.data);
  }

  slice(length) {
    const at = this.rand.int(0, noise.length - length);
    return noise.subarray(at, at + length);
  }

  async download() {
    const files = this.liveFiles((f) => f.data);
    if (!files.length) return;
    const file = this.rand.pick(files);
    const answer = await this.call('download', 'GET /file-service/download/:id', `/file-service/download/${file.id}`);
    if (answer?.ok && !answer.body.equals(file.data))
      countError('wrong bytes', `download of ${file.id}: ${answer.body.length} bytes, ${file.data.length} uploaded`);
  }

  async range() {
    const files = this.liveFiles((f) => f.data?.length > 2);
    if (!files.length) return;
    const file = this.rand.pick(files);
    const start = this.rand.int(0, file.data.length - 2);
    const end = this.rand.int(start, Math.min(file.data.length - 1, start + 256 * 1024));
    const answer = await this.call('download (Range)', 'GET /file-service/download/:id (Range)', `/file-service/download/${file.id}`, {
      headers: { range: `bytes=${start}-${end}` },
      expect: [206],
    });
    if (answer?.ok && !answer.body.equals(file.data.subarray(start, end + 1)))
      countError('wrong bytes', `range ${start}-${end} of ${file.id}`);
  }

  // ----- sharing ---------------------------------------------------------------------------------

  async publicLink() {
    const files = this.liveFiles((f) => f.data);
    if (!files.length) return;
    const file = this.rand.pick(files);
    const dto = json(
      await this.call('share', 'PATCH /file-service/make-public/:id', `/file-service/make-public/${file.id}`, { method: 'PATCH' }),
    );
    if (!dto) return;
    const token = dto.metadata.link;
    await this.visit('public', 'GET /file-service/public/info/:id/:token', `/file-service/public/info/${file.id}/${token}`);
    const got = await this.visit(
      'public',
      'GET /file-service/public/download/:id/:token',
      `/file-service/public/download/${file.id}/${token}`,
    );
    if (got?.ok && !got.body.equals(file.data)) countError('wrong bytes', `public download of ${file.id}`);
    if (this.rand.chance(0.5)) {
      await this.call('share', 'PATCH /file-service/remove-link/:id', `/file-service/remove-link/${file.id}`, { method: 'PATCH' });
      await this.visit(
        'public',
        'GET /file-service/public/download/:id/:token (removed)',
        `/file-service/public/download/${file.id}/${token}`,
        {
          expect: [404],
        },
      );
    }
  }

  async shareLink() {
    const folders = this.liveFolders();
    const files = this.liveFiles((f) => f.data);
    const asFolder = folders.length && (!files.length || this.rand.chance(0.4));
    if (!asFolder && !files.length) return;
    const item = asFolder ? this.rand.pick(folders) : this.rand.pick(files);
    const link = json(
      await this.call('share', 'POST /share-service/links', '/share-service/links', {
        method: 'POST',
        json: { itemType: asFolder ? 'folder' : 'file', itemId: item.id },
        expect: [201],
      }),
    );
    if (!link) return;
    const page = `/share-service/public/${link.token}`;
    await this.visit('public', 'GET /share-service/public/:token', page);
    if (asFolder) {
      const listing = json(await this.visit('public', 'GET /share-service/public/:token/list', `${page}/list`));
      const file = listing?.files[0] && this.files.get(listing.files[0].id);
      if (file?.data) {
        const got = await this.visit('public', 'GET /share-service/public/:token/files/:id/download', `${page}/files/${file.id}/download`);
        if (got?.ok && !got.body.equals(file.data)) countError('wrong bytes', `shared folder download of ${file.id}`);
      }
    } else {
      const got = await this.visit('public', 'GET /share-service/public/:token/files/:id/download', `${page}/files/${item.id}/download`);
      if (got?.ok && !got.body.equals(item.data)) countError('wrong bytes', `shared download of ${item.id}`);
    }
    if (this.rand.chance(0.5)) {
      await this.call('share', 'DELETE /share-service/links/:id', `/share-service/links/${link.id}`, { method: 'DELETE', expect: [204] });
      await this.visit('public', 'GET /share-service/public/:token (revoked)', page, { expect: [404, 410] });
    }
  }

  // ----- organising ------------------------------------------------------------------------------

  async createFolder() {
    const parent = this.rand.chance(0.7) ? '/' : this.parentChoice();
    const name = `${this.rand.pick(WORDS)} ${++this.n}`;
    const dto = json(
      await this.call('organise', 'POST /folder-service/create', '/folder-service/create', {
        method: 'POST',
        json: { name, parent },
        expect: [201],
      }),
    );
    if (dto) this.addFolder(dto);
  }

  async rename() {
    const folders = this.liveFolders();
    const isFolder = folders.length && this.rand.chance(0.3);
    const item = isFolder ? this.rand.pick(folders) : this.rand.pick(this.liveFiles());
    if (!item) return;
    const title = isFolder ? `${this.rand.pick(WORDS)} ${++this.n}` : this.name(item.name.split('.').pop());
    const route = isFolder ? '/folder-service/rename' : '/file-service/rename';
    const dto = json(await this.call('organise', `PATCH ${route}`, route, { method: 'PATCH', json: { id: item.id, title } }));
    if (dto) item.name = isFolder ? dto.name : dto.filename;
  }

  async move() {
    const folders = this.liveFolders();
    if (folders.length && this.rand.chance(0.3)) {
      const folder = this.rand.pick(folders);
      // Never into itself or below it (that is a 400 by design, not what a user does).
      const inside = (f) => {
        for (let at = f; at; at = this.folders.get(at.parent)) if (at.id === folder.id) return true;
        return false;
      };
      const targets = ['/', ...folders.filter((f) => !inside(f)).map((f) => f.id)];
      const parentID = this.rand.pick(targets);
      const dto = json(
        await this.call('organise', 'PATCH /folder-service/move', '/folder-service/move', {
          method: 'PATCH',
          json: { id: folder.id, parentID },
        }),
      );
      if (dto) folder.parent = parentID;
      return;
    }
    const files = this.liveFiles();
    if (!files.length) return;
    const file = this.rand.pick(files);
    const parentID = this.parentChoice();
    const dto = json(
      await this.call('organise', 'PATCH /file-service/move', '/file-service/move', { method: 'PATCH', json: { id: file.id, parentID } }),
    );
    if (dto) file.parent = dto.metadata.parent;
  }

  async trash() {
    const folders = this.liveFolders();
    const isFolder = folders.length && this.rand.chance(0.15);
    const item = isFolder ? this.rand.pick(folders) : this.rand.pick(this.liveFiles());
    if (!item) return;
    const route = isFolder ? '/folder-service/trash' : '/file-service/trash';
    if (await this.call('trash', `PATCH ${route}`, route, { method: 'PATCH', json: { id: item.id } }).then((a) => a?.ok))
      item.trashed = true;
  }

  /** The trash page, then one item back where it was (or to the root when its folder is gone). */
  async restore() {
    const base = this.server();
    await Promise.all([
      this.call('browse', 'GET /file-service/list (trash)', '/file-service/list?trashMode=true&limit=50', { base }),
      this.call('browse', 'GET /folder-service/list (trash)', '/folder-service/list?trashMode=true', { base }),
    ]);
    const files = this.trashTop(this.files);
    const folders = this.trashTop(this.folders);
    const isFolder = folders.length && (!files.length || this.rand.chance(0.3));
    const item = isFolder ? this.rand.pick(folders) : this.rand.pick(files);
    if (!item) return;
    const route = isFolder ? '/folder-service/restore' : '/file-service/restore';
    const dto = json(await this.call('trash', `PATCH ${route}`, route, { method: 'PATCH', json: { id: item.id }, base }));
    if (!dto) return;
    item.trashed = false;
    item.parent = isFolder ? (dto.parent ?? '/') : dto.metadata.parent;
  }

  async deleteForever() {
    const files = this.trashTop(this.files);
    if (!files.length) return;
    const file = this.rand.pick(files);
    const answer = await this.call('trash', 'DELETE /file-service/remove', '/file-service/remove', {
      method: 'DELETE',
      json: { id: file.id },
    });
    if (answer?.ok) this.files.delete(file.id);
  }

  /** The tab comes back into view: the web app refreshes its token (on either server). */
  async refresh() {
    const answer = await this.call('auth', 'POST /user-service/get-token', '/user-service/get-token', { method: 'POST' });
    if (answer?.ok) this.refreshedAt = Date.now();
  }
}

const ACTIONS = [
  ['home', 14],
  ['openFolder', 12],
  ['info', 6],
  ['account', 2],
  ['search', 8],
  ['gallery', 4],
  ['upload', 10],
  ['uploadFolder', 1.5],
  ['download', 8],
  ['range', 4],
  ['publicLink', 3],
  ['shareLink', 3],
  ['createFolder', 3],
  ['rename', 4],
  ['move', 4],
  ['trash', 4],
  ['restore', 3],
  ['deleteForever', 1],
  ['refresh', 2],
];
const TOTAL_WEIGHT = ACTIONS.reduce((sum, [, w]) => sum + w, 0);

// ---------------------------------------------------------------------------------------------
// Servers: one on SQLite and local disk, or two sharing a scratch PostgreSQL database and s3rver.

/** s3rver in its own process (not on the client's event loop), with one bucket. */
async function startS3rver(directory) {
  const source = `
    const S3rver = require('s3rver');
    new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: ${JSON.stringify(directory)}, configureBuckets: [{ name: 'nimbus-load' }] })
      .run().then(({ port }) => process.send(port));`;
  // s3rver pages listings of over 1,000 keys with a DES token: OpenSSL 3 keeps DES in its legacy provider.
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', source], {
    cwd: path.resolve(import.meta.dirname, '..'),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code})`)));
  });
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => (child.kill(), child.once('exit', r))) };
}

async function startTopology(dir) {
  const cleanups = [];
  // 200 sign-ups from one address; /metrics for the servers' heap figures.
  const env = { ACCOUNT_RATE_LIMIT: '0', METRICS_TOKEN };
  if (TOPOLOGY === 'sqlite') {
    const server = await startServer({ dataDir: path.join(dir, 'data'), env });
    return { servers: [server], close: () => server.stop() };
  }
  if (TOPOLOGY !== 'pg-s3-2') throw new Error(`LOAD_TOPOLOGY is sqlite or pg-s3-2, not ${TOPOLOGY}`);
  const pg = (await import('pg')).default;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  const name = `nimbus_load_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  cleanups.push(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  const s3 = await startS3rver(path.join(dir, 's3'));
  cleanups.push(s3.stop);
  Object.assign(env, {
    DATABASE_URL: url.toString(),
    SECRET_KEY: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    STORAGE: 's3',
    S3_BUCKET: 'nimbus-load',
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  });
  const close = async () => {
    for (const c of cleanups) await c().catch((err) => console.error(`cleanup: ${err.message}`));
  };
  // One at a time: the first migrates the database.
  const servers = [];
  try {
    for (const id of ['a', 'b']) {
      const server = await startServer({ dataDir: path.join(dir, id), env });
      servers.push(server);
      cleanups.unshift(server.stop);
    }
  } catch (err) {
    await close();
    throw err;
  }
  return { servers, close };
}

const METRICS_TOKEN = randomBytes(24).toString('hex');

/** The V8 heap in use and the memory held outside it (Buffers), in MiB, from the server's /metrics. */
async function heapMiB(base) {
  const text = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => r.text());
  const gauge = (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  return { used: gauge('nodejs_heap_size_used_bytes'), external: gauge('nodejs_external_memory_bytes') };
}

const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

// ---------------------------------------------------------------------------------------------
// The run.

const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-bench-load-'));
const topology = await startTopology(dir);
const { servers } = topology;
started = Date.now();
deadline = started + SECONDS * 1000;
process.once('SIGINT', () => (deadline = Date.now())); // stop early, still clean up and report
const loadBefore = os.loadavg();
const rss = [];
const sampler = setInterval(async () => {
  try {
    const sample = { at: Date.now() - started, mib: servers.map((s) => rssMiB(s.child.pid)), load: os.loadavg()[0] };
    sample.heap = await Promise.all(servers.map((s) => heapMiB(s.base)));
    rss.push(sample);
  } catch {
    // a server that has gone shows up as connection errors
  }
}, 5000);
let signUpFailures = 0;
let elapsed, loadAfter, alive;
try {
  const users = Array.from({ length: USERS }, (_, i) => new User(i, servers));
  await Promise.all(
    users.map(async (user, i) => {
      await sleep((RAMP_MS * i) / USERS);
      if (!running()) return;
      if (!(await user.signUp())) return void signUpFailures++;
      // A throw here is the script's own bug: counted, and that user stops.
      await user.session().catch((err) => countError('client exception', err.stack));
    }),
  );
  elapsed = (Date.now() - started) / 1000;
  loadAfter = os.loadavg();
  alive = await Promise.all(
    servers.map((s) =>
      fetch(`${s.base}/health`).then(
        (r) => r.ok,
        () => false,
      ),
    ),
  );
} finally {
  clearInterval(sampler);
  await topology.close();
  await rm(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// The report.

const pct = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (v) => (v < 10 ? v.toFixed(1) : v.toFixed(0)).padStart(6);
const avg = (list) => (list.length ? list.reduce((a, b) => a + b, 0) / list.length : NaN);
const rssIn = (from, to, i) => avg(rss.filter((s) => s.at >= from && s.at < to).map((s) => s.mib[i]));
const errors = [...stats.errors.values()].reduce((a, b) => a + b, 0) + signUpFailures + alive.filter((a) => !a).length;

console.log(
  `\nLoad: ${USERS} users, ${SECONDS} s, topology ${TOPOLOGY} (${servers.length} server process${servers.length > 1 ? 'es' : ''}), seed ${SEED}`,
);
console.log(
  `  requests     ${stats.requests} in ${elapsed.toFixed(0)} s: ${(stats.requests / elapsed).toFixed(1)} req/s, ` +
    `${(stats.bytesUp / 2 ** 20).toFixed(0)} MiB up, ${(stats.bytesDown / 2 ** 20).toFixed(0)} MiB down`,
);
const kinds = ['5xx', 'unexpected 4xx', 'connection', 'wrong bytes', 'wrong answer', 'client exception'];
const byKind = kinds.map((k) => `${k} ${stats.errors.get(k) ?? 0}`).join(', ');
console.log(
  `  errors       ${errors} (${byKind}, failed sign-ups ${signUpFailures}, servers down at the end ${alive.filter((a) => !a).length})`,
);
console.log('  latency (ms)              count    p50    p95    p99    max');
for (const [kind, list] of [...stats.latency].sort()) {
  const sorted = list.sort((a, b) => a - b);
  console.log(
    `    ${kind.padEnd(22)} ${String(sorted.length).padStart(7)} ${ms(pct(sorted, 0.5))} ${ms(pct(sorted, 0.95))} ${ms(pct(sorted, 0.99))} ${ms(sorted.at(-1))}`,
  );
}
servers.forEach((s, i) => {
  const all = rss.map((r) => r.mib[i]);
  console.log(
    `  RSS server ${i + 1}  first minute ${rssIn(0, 60_000, i).toFixed(0)} MiB, last minute ${rssIn(elapsed * 1000 - 60_000, Infinity, i).toFixed(0)} MiB, peak ${Math.max(...all).toFixed(0)} MiB`,
  );
  // The lowest heap of each minute is what survived the collections in it: a leak makes it climb
  // minute after minute, caches warming up level it off.
  const minutes = [];
  for (let from = 0; from < elapsed * 1000; from += 60_000) {
    const inMinute = rss.filter((r) => r.at >= from && r.at < from + 60_000);
    if (!inMinute.length) continue;
    const lowest = Math.min(...inMinute.map((r) => r.heap[i].used));
    const rssAvg = avg(inMinute.map((r) => r.mib[i]));
    const external = avg(inMinute.map((r) => r.heap[i].external));
    minutes.push(`${(from / 60_000 + 1).toFixed(0)}: ${rssAvg.toFixed(0)}/${lowest.toFixed(0)}/${external.toFixed(0)}`);
  }
  console.log(`    by minute (RSS / lowest heap in use / outside the heap, MiB)  ${minutes.join('  ')}`);
});
console.log(
  `  load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after ` +
    `(1-min peak ${Math.max(...rss.map((r) => r.load)).toFixed(2)}; ${os.cpus().length} cores, client and servers on this machine)`,
);
console.log('  by route and status');
for (const [key, count] of [...stats.byRoute].sort()) console.log(`    ${key.padEnd(66)} ${String(count).padStart(7)}`);
for (const line of stats.samples) console.log(`  ! ${line}`);
if (errors)
  console.log(
    `  replay the choices: LOAD_SEED=${SEED} LOAD_USERS=${USERS} LOAD_SECONDS=${SECONDS} LOAD_TOPOLOGY=${TOPOLOGY} npm run bench load`,
  );
process.exit(errors ? 1 : 0);
