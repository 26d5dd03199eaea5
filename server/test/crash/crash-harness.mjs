// Seeded fault injection: a client drives a random mix of operations against the built server
// (`dist/main.js`) in its own process, the process is SIGKILLed at a random moment, restarted on
// the same data, and the invariants are checked. Shared by test/crash (a few trials per backend)
// and bench/crash.bench.mjs (hundreds). Plain JavaScript so the benchmark runs it without a build.
import { spawn, execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const DIST = path.resolve(import.meta.dirname, '../../dist');
const KiB = 1024;
const MiB = 1024 * KiB;
const PG_ADMIN_URL = process.env.NIMBUS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

const sha = (buf) => createHash('sha256').update(buf).digest('hex');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

// ---------------------------------------------------------------------------------------------
// Backends: a scratch PostgreSQL database and an s3rver bucket per run, never a shared one.

async function createBackends(kind, dir) {
  const env = {};
  const cleanups = [];
  let query;
  if (kind.db === 'postgres') {
    const pg = (await import('pg')).default;
    const name = `nimbus_crash_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    query = async (text) => (await client.query(text)).rows;
    cleanups.push(async () => {
      await client.end();
      const drop = new pg.Client({ connectionString: PG_ADMIN_URL });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.end();
    });
  } else {
    const Database = (await import('better-sqlite3')).default;
    let handle = null;
    query = async (text) => {
      handle ??= new Database(path.join(dir, 'data', 'nimbus.sqlite'), { readonly: true, fileMustExist: true });
      return handle.prepare(text).all();
    };
    cleanups.push(async () => handle?.close());
  }
  let s3Restarts = 0;
  if (kind.storage === 's3') {
    const s3 = await superviseS3rver(path.join(dir, 's3'), await freePort(), () => s3Restarts++);
    const port = s3.port;
    Object.assign(env, {
      STORAGE: 's3',
      S3_BUCKET: 'nimbus-crash',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    });
    cleanups.push(s3.stop);
  }
  return {
    env,
    query,
    s3Restarts: () => s3Restarts,
    close: async () => Promise.all(cleanups.map((c) => c().catch(() => {}))),
  };
}

/**
 * s3rver in a process of its own, started again on the same directory and port if it dies: it
 * stores objects as files and can crash on a PUT racing a DELETE of the same key (a write stream
 * opened in a folder just removed), which a killed server's half-sent requests provoke. A real S3
 * service does not go away with it; the harness must not either.
 */
async function superviseS3rver(directory, port, onRestart) {
  const source = `
    const S3rver = require('s3rver');
    new S3rver({ address: '127.0.0.1', port: ${port}, silent: true, directory: ${JSON.stringify(directory)},
      configureBuckets: [{ name: 'nimbus-crash' }] }).run().then(() => process.send('ready'));`;
  let child = null;
  let stopping = false;
  const start = async () => {
    // s3rver pages a listing of more than 1,000 keys with a DES token, which OpenSSL 3 keeps in its
    // legacy provider: without it every such listing answers InternalError.
    child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', source], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    const current = child;
    await new Promise((resolve, reject) => {
      current.once('message', resolve);
      current.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before it was ready`)));
    });
    current.once('exit', () => {
      if (stopping) return;
      onRestart();
      start().catch((err) => console.error(`s3rver did not come back: ${err.message}`));
    });
  };
  await start();
  return {
    port,
    stop: async () => {
      stopping = true;
      if (child && child.exitCode === null) {
        child.kill();
        await new Promise((resolve) => child.once('exit', resolve));
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The server process.

/** The server's own error lines (pino level 50+), to tell why it answered a 5xx. */
function serverErrors(output) {
  const lines = output.split('\n').filter((line) => /"level":(5|6)0/.test(line));
  return lines.length ? `; server said: ${lines.slice(-3).join(' | ').slice(0, 2_000)}` : '';
}

class ServerProcess {
  constructor(env, port) {
    this.env = env;
    this.port = port;
    this.base = `http://127.0.0.1:${port}`;
    this.child = null;
    this.output = '';
  }

  async start() {
    this.output = '';
    const child = spawn(process.execPath, [path.join(DIST, 'main.js')], { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c) => (this.output = (this.output + c).slice(-20_000)));
    child.stderr.on('data', (c) => (this.output = (this.output + c).slice(-20_000)));
    this.child = child;
    this.exited = new Promise((r) => child.once('exit', r));
    for (let i = 0; i < 300; i++) {
      const up = await fetch(`${this.base}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) return;
      if (child.exitCode !== null) break;
      await sleep(50);
    }
    child.kill('SIGKILL');
    throw new Error(`server did not start:\n${this.output}`);
  }

  async kill() {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  async stop() {
    this.child.kill('SIGTERM');
    await this.exited;
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP: requests whose bodies trickle out, so a kill lands in the middle of one.

/** Sends `body` in pieces with pauses; resolves `{status, body}` or `{cut: true}` when the connection died. */
function slowRequest(base, method, url, headers, body, { piece = 64 * KiB, pauseMs = 0 } = {}) {
  return new Promise((resolve) => {
    let settled = false;
    const done = (value) => {
      if (!settled) {
        settled = true;
        resolve(value);
      }
    };
    const req = http.request(`${base}${url}`, { method, headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', () => done({ cut: true }));
    });
    req.on('error', () => done({ cut: true }));
    let sent = 0;
    const pump = () => {
      if (settled || req.destroyed) return;
      if (sent >= body.length) return void req.end();
      const part = body.subarray(sent, sent + piece);
      sent += part.length;
      req.write(part, () => (pauseMs ? setTimeout(pump, pauseMs) : setImmediate(pump)));
    };
    pump();
  });
}

async function formBody(fields, files) {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  for (const f of files) form.append('file', new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }), f.name);
  const response = new Response(form);
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') };
}

class Client {
  constructor(server) {
    this.server = server;
    this.uuid = randomUUID();
    this.cookie = '';
  }
  get headers() {
    return { uuid: this.uuid, cookie: this.cookie };
  }
  async signUp() {
    this.email = `crash-${this.uuid}@example.com`;
    const r = await fetch(`${this.server.base}/user-service/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', uuid: this.uuid },
      body: JSON.stringify({ email: this.email, password: 'crash-password' }),
    });
    if (r.status !== 201) throw new Error(`sign-up answered ${r.status}`);
    this.cookie = r.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const created = await this.json('POST', '/user-service/app-passwords', { name: 'crash' });
    this.dav = `Basic ${Buffer.from(`${this.email}:${created.body.password}`).toString('base64')}`;
  }
  /**
   * Renews the session as the web app does (its access token lives 20 minutes, a long run more).
   * Called between trials only, never while requests are in flight: the refresh token rotates.
   */
  async renew() {
    const r = await fetch(`${this.server.base}/user-service/get-token`, { method: 'POST', headers: this.headers });
    if (r.status !== 200) throw new Error(`renewing the session answered ${r.status}`);
    this.cookie = r.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  }
  /** JSON call; `{cut: true}` when the server died under it. */
  async json(method, url, body) {
    try {
      const r = await fetch(`${this.server.base}${url}`, {
        method,
        headers: { ...this.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await r.text();
      let parsed = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text;
      }
      return { status: r.status, body: parsed };
    } catch {
      return { cut: true };
    }
  }
  async download(url) {
    const r = await fetch(`${this.server.base}${url}`, { headers: this.headers, signal: AbortSignal.timeout(60_000) });
    return { status: r.status, body: Buffer.from(await r.arrayBuffer()) };
  }
}

// ---------------------------------------------------------------------------------------------
// What the client knows: contents it sent, and files whose upload it saw answered.

class Model {
  constructor() {
    /** sha256 → size of every content the client ever sent. */
    this.sent = new Map();
    /** file id → sha256 the client saw stored (an answered upload). */
    this.files = new Map();
    /** file ids that must exist (no delete of them was sent, answered or not). */
    this.mustExist = new Set();
    /** Names of cut uploads: they may be absent, or present and complete. */
    this.tus = [];
    this.folders = new Set();
    /** file id → the contents it held before, in order: each must be kept as one of its versions. */
    this.kept = new Map();
    /** file id → the content of a replacement the kill cut: the file holds either it or the one before. */
    this.pending = new Map();
    /** Files a replacement is in flight for: a second one waits for it to end. */
    this.replacing = new Set();
    /** Folder deletions in flight, and a serial bumped as each starts and ends. */
    this.deleting = 0;
    this.deletionSerial = 0;
  }
  /**
   * Taken as an upload starts: an upload that overlaps a folder deletion may have landed in that
   * folder (or one moved into it) and gone with it, so it is checked for content, not for presence.
   */
  uploadBegins() {
    return { serial: this.deletionSerial, overlapped: this.deleting > 0 };
  }
  content(rand, size) {
    const data = randomBytes(size);
    // Seeded sizes and choices; random bytes only make contents distinct.
    this.sent.set(sha(data), size);
    return data;
  }
  stored(file, digest, began) {
    this.files.set(file._id, digest);
    if (!began.overlapped && began.serial === this.deletionSerial && this.deleting === 0) this.mustExist.add(file._id);
  }
  forget(id) {
    this.mustExist.delete(id);
  }
  /** A replacement of the file's content was answered (or found done after a kill): the one before is a version now. */
  replaced(id, digest) {
    this.pending.delete(id);
    const before = this.files.get(id);
    if (before === undefined || before === digest) return;
    if (!this.kept.has(id)) this.kept.set(id, []);
    this.kept.get(id).push(before);
    this.files.set(id, digest);
  }
}

async function tinyImage(rand) {
  const sharp = (await import('sharp')).default;
  return sharp({
    create: {
      width: rand.int(8, 64),
      height: rand.int(8, 64),
      channels: 3,
      background: { r: rand.int(0, 255), g: rand.int(0, 255), b: rand.int(0, 255) },
    },
  })
    .png()
    .toBuffer();
}

let nameCounter = 0;
const uniqueName = (prefix, ext = 'bin') => `${prefix}-${Date.now().toString(36)}-${++nameCounter}.${ext}`;

// ---------------------------------------------------------------------------------------------
// Operations. Each returns when answered or cut; none throws on a dead server.

function operations(client, model, rand) {
  const base = () => client.server.base;
  const anyFolder = () => (model.folders.size && rand.chance(0.6) ? rand.pick([...model.folders]) : '/');
  const anyFile = () => (model.mustExist.size ? rand.pick([...model.mustExist]) : null);
  const slow = () => ({ piece: rand.pick([16 * KiB, 64 * KiB, 256 * KiB]), pauseMs: rand.int(0, 8) });

  const upload = async (size, data) => {
    const began = model.uploadBegins();
    if (data) model.sent.set(sha(data), data.length);
    else data = model.content(rand, size);
    const name = uniqueName('up', 'bin');
    const { body, contentType } = await formBody(
      [
        ['filename', name],
        ['parent', anyFolder()],
      ],
      [{ name, data }],
    );
    const r = await slowRequest(base(), 'POST', '/file-service/upload', { ...client.headers, 'content-type': contentType }, body, slow());
    if (r.status === 201) model.stored(JSON.parse(r.body.toString()), sha(data), began);
    return r;
  };

  /**
   * New content for an answered file, through WebDAV (a PUT onto its path, for a file at the top)
   * or the web app's "Upload new version". Answered, the file holds it and keeps the old content as
   * a version; cut by the kill, it holds one or the other (decided when the invariants run).
   */
  const replaceContent = async (via) => {
    const candidates = [...model.mustExist].filter((id) => model.files.has(id) && !model.replacing.has(id));
    if (!candidates.length) return { skipped: true };
    const id = rand.pick(candidates);
    model.replacing.add(id);
    try {
      const data = model.content(rand, rand.int(0, 1 * MiB));
      const digest = sha(data);
      if (via === 'dav') {
        const info = await client.json('GET', `/file-service/info/${id}`);
        if (info.cut || info.status !== 200 || info.body.metadata.parent !== '/') return info;
        model.pending.set(id, digest);
        const r = await slowRequest(
          base(),
          'PUT',
          `/dav/${encodeURIComponent(info.body.filename)}`,
          { authorization: client.dav },
          data,
          slow(),
        );
        if (r.cut) return r;
        model.pending.delete(id);
        if (r.status === 204) model.replaced(id, digest);
        else if (r.status === 201) {
          // Renamed or trashed meanwhile: the PUT made a new file of that name.
          const made = await findByName(client, info.body.filename);
          if (made && made._id !== id) model.stored(made, digest, model.uploadBegins());
        }
        return r;
      }
      const { body, contentType } = await formBody([], [{ name: uniqueName('version'), data }]);
      model.pending.set(id, digest);
      const r = await slowRequest(
        base(),
        'POST',
        `/file-service/upload-version/${id}`,
        { ...client.headers, 'content-type': contentType },
        body,
        slow(),
      );
      if (r.cut) return r;
      model.pending.delete(id);
      if (r.status === 200) model.replaced(id, digest);
      return r;
    } finally {
      model.replacing.delete(id);
    }
  };

  return {
    replaceByDav: () => replaceContent('dav'),
    uploadVersion: () => replaceContent('upload'),
    uploadSmall: () => upload(rand.int(0, 200 * KiB)),
    uploadLarge: () => upload(rand.int(2 * MiB, 6 * MiB)),
    uploadImage: async () => upload(0, await tinyImage(rand)),
    async uploadFolder() {
      const began = model.uploadBegins();
      const count = rand.int(2, 5);
      const root = uniqueName('tree', 'd');
      const files = [];
      for (let i = 0; i < count; i++) {
        const data = model.content(rand, rand.int(1, 300 * KiB));
        files.push({ name: `f${i}.bin`, data, path: `${root}/${i % 2 ? 'sub/' : ''}f${i}.bin` });
      }
      const fields = [
        ['parent', anyFolder()],
        ['total-files', String(count)],
        ...files.map((f, index) => [
          'file-data',
          JSON.stringify({ name: f.name, size: f.data.length, type: 'application/octet-stream', path: f.path, index }),
        ]),
      ];
      const { body, contentType } = await formBody(fields, files);
      const r = await slowRequest(
        base(),
        'POST',
        '/folder-service/upload',
        { ...client.headers, 'content-type': contentType },
        body,
        slow(),
      );
      if (r.status === 201 || r.status === 200) {
        const answer = JSON.parse(r.body.toString());
        for (const file of answer.files ?? []) {
          const f = files.find((x) => x.name === file.filename);
          if (f) model.stored(file, sha(f.data), began);
        }
        for (const folder of answer.folders ?? []) model.folders.add(folder._id);
      }
      return r;
    },
    async tus() {
      const began = model.uploadBegins();
      const data = model.content(rand, rand.int(1 * MiB, 5 * MiB));
      const name = uniqueName('tus');
      const begin = await fetch(`${base()}/file-service/tus`, {
        method: 'POST',
        headers: {
          ...client.headers,
          'tus-resumable': '1.0.0',
          'upload-length': String(data.length),
          'upload-metadata': `filename ${Buffer.from(name).toString('base64')}`,
        },
      }).catch(() => null);
      if (!begin) return { cut: true };
      if (begin.status !== 201) return { status: begin.status };
      const upload = { location: begin.headers.get('location'), data, name, began };
      model.tus.push(upload);
      return sendTusRest(client, model, upload, slow());
    },
    async davPut() {
      const began = model.uploadBegins();
      const data = model.content(rand, rand.int(0, 1 * MiB));
      const name = uniqueName('dav');
      const r = await slowRequest(base(), 'PUT', `/dav/${name}`, { authorization: client.dav }, data, slow());
      if (r.status === 201 || r.status === 204) {
        const info = await findByName(client, name);
        if (info) model.stored(info, sha(data), began);
      }
      return r;
    },
    async davMove() {
      const id = anyFile();
      if (!id) return { skipped: true };
      const info = await client.json('GET', `/file-service/info/${id}`);
      if (info.cut || info.status !== 200 || info.body.metadata.parent !== '/') return info;
      const to = uniqueName('moved');
      return slowRequest(
        base(),
        'MOVE',
        `/dav/${encodeURIComponent(info.body.filename)}`,
        { authorization: client.dav, destination: `${base()}/dav/${to}` },
        Buffer.alloc(0),
      );
    },
    async davDelete() {
      const id = anyFile();
      if (!id) return { skipped: true };
      const info = await client.json('GET', `/file-service/info/${id}`);
      if (info.cut || info.status !== 200 || info.body.metadata.parent !== '/') return info;
      model.forget(id);
      return slowRequest(
        base(),
        'DELETE',
        `/dav/${encodeURIComponent(info.body.filename)}`,
        { authorization: client.dav },
        Buffer.alloc(0),
      );
    },
    async createFolder() {
      const r = await client.json('POST', '/folder-service/create', { name: uniqueName('folder', 'd'), parent: anyFolder() });
      if (r.status === 201 || r.status === 200) model.folders.add(r.body._id);
      return r;
    },
    async renameFolder() {
      if (!model.folders.size) return { skipped: true };
      return client.json('PATCH', '/folder-service/rename', { id: rand.pick([...model.folders]), title: uniqueName('renamed', 'd') });
    },
    async moveFolder() {
      if (model.folders.size < 2) return { skipped: true };
      // Into a descendant is refused (400); either way the tree must stay a tree.
      return client.json('PATCH', '/folder-service/move', { id: rand.pick([...model.folders]), parentID: anyFolder() });
    },
    async renameFile() {
      const id = anyFile();
      return id ? client.json('PATCH', '/file-service/rename', { id, title: uniqueName('renamed') }) : { skipped: true };
    },
    async moveFile() {
      const id = anyFile();
      return id ? client.json('PATCH', '/file-service/move', { id, parentID: anyFolder() }) : { skipped: true };
    },
    async trashRestoreFolder() {
      if (!model.folders.size) return { skipped: true };
      const id = rand.pick([...model.folders]);
      const r = await client.json('PATCH', '/folder-service/trash', { id });
      if (r.cut || r.status !== 200 || rand.chance(0.3)) return r;
      return client.json('PATCH', '/folder-service/restore', { id });
    },
    async deleteFolder() {
      if (!model.folders.size) return { skipped: true };
      const id = rand.pick([...model.folders]);
      // Every file under it may go: stop requiring any file (the checks still verify what remains),
      // nor any that another stream uploads meanwhile.
      for (const f of [...model.mustExist]) model.forget(f);
      model.folders.delete(id);
      model.deleting++;
      model.deletionSerial++;
      try {
        const r = await client.json('PATCH', '/folder-service/trash', { id });
        if (r.cut || r.status !== 200) return r;
        return await client.json('DELETE', '/folder-service/remove', { id });
      } finally {
        model.deleting--;
        model.deletionSerial++;
      }
    },
    async trashDeleteFile() {
      const id = anyFile();
      if (!id) return { skipped: true };
      const r = await client.json('PATCH', '/file-service/trash', { id });
      if (r.cut || r.status !== 200) return r;
      if (rand.chance(0.5)) return client.json('PATCH', '/file-service/restore', { id });
      model.forget(id);
      return client.json('DELETE', '/file-service/remove', { id });
    },
    async links() {
      const id = anyFile();
      if (!id) return { skipped: true };
      const r = await client.json('PATCH', `/file-service/make-public/${id}`);
      if (r.cut || r.status !== 200) return r;
      if (rand.chance(0.5)) return client.json('POST', '/share-service/links', { itemType: 'file', itemId: id });
      return client.json('PATCH', `/file-service/remove-link/${id}`);
    },
  };
}

const WEIGHTS = {
  replaceByDav: 3,
  uploadVersion: 3,
  uploadSmall: 6,
  uploadLarge: 3,
  uploadImage: 3,
  uploadFolder: 2,
  tus: 2,
  davPut: 2,
  davMove: 1,
  davDelete: 1,
  createFolder: 3,
  renameFolder: 1,
  moveFolder: 2,
  renameFile: 1,
  moveFile: 2,
  trashRestoreFolder: 2,
  deleteFolder: 1,
  trashDeleteFile: 2,
  links: 1,
};
const weighted = (weights) => Object.entries(weights).flatMap(([name, w]) => Array(w).fill(name));

async function findByName(client, name) {
  const r = await client.json('GET', `/file-service/list?parent=/&limit=50&search=${encodeURIComponent(name)}`);
  if (r.cut || r.status !== 200) return null;
  return (r.body ?? []).find((f) => f.filename === name) ?? null;
}

/** Sends what the server does not have yet of a tus upload; marks it done when the file exists. */
async function sendTusRest(client, model, upload, pace = {}) {
  const head = await fetch(`${client.server.base}${upload.location}`, {
    method: 'HEAD',
    headers: { ...client.headers, 'tus-resumable': '1.0.0' },
  }).catch(() => null);
  if (!head) return { cut: true };
  if (head.status !== 200) return { status: head.status };
  const offset = Number(head.headers.get('upload-offset'));
  const r = await slowRequest(
    client.server.base,
    'PATCH',
    upload.location,
    { ...client.headers, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    upload.data.subarray(offset),
    pace,
  );
  if (r.status === 204) {
    upload.done = true;
    const info = await findByName(client, upload.name);
    if (info) model.stored(info, sha(upload.data), upload.began);
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Invariants.

async function checkInvariants(ctx, violations) {
  const { client, model, query, rand } = ctx;
  let checked = 0;
  const fail = (kind, detail) => violations.push({ trial: ctx.trial, kind, detail });

  // Files: every row's content is something the client sent, whole; every answered upload is there.
  const files = await query(
    `select id, folder_id, filename, size, sha256, trashed_at, trashed_via from file where owner_id = '${client.id}'`,
  );
  const folders = await query(`select id, parent_id, trashed_at, trashed_via from folder where owner_id = '${client.id}'`);
  const fileIds = new Set(files.map((f) => f.id));
  for (const id of model.mustExist) {
    checked++;
    if (!fileIds.has(id)) fail('answered-upload-lost', `file ${id} was stored (answered) and never deleted, but is gone`);
  }
  // A replacement the kill cut either happened whole or not at all.
  for (const [id, digest] of [...model.pending]) {
    const f = files.find((x) => x.id === id);
    if (f?.sha256 === digest) model.replaced(id, digest);
    else model.pending.delete(id);
  }
  for (const f of files) {
    checked++;
    const size = model.sent.get(f.sha256);
    if (size === undefined) fail('unknown-content', `file ${f.id} (${f.filename}) holds content the client never sent whole`);
    else if (Number(f.size) !== size) fail('partial-file', `file ${f.id} (${f.filename}) is ${f.size} bytes of ${size}`);
    const expected = model.files.get(f.id);
    if (expected && expected !== f.sha256) fail('content-changed', `file ${f.id} changed content`);
  }

  // Versions: a file keeps exactly the contents it held before, each whole (none is old enough
  // here for retention to thin it).
  const versions = await query(`select id, file_id, size, sha256 from file_version where owner_id = '${client.id}'`);
  for (const f of files) {
    const kept = model.kept.get(f.id) ?? [];
    const have = versions.filter((v) => v.file_id === f.id);
    for (const digest of kept) {
      checked++;
      if (!have.some((v) => v.sha256 === digest)) fail('version-lost', `file ${f.id} no longer keeps its content ${digest} as a version`);
    }
    for (const v of have) {
      checked++;
      if (!kept.includes(v.sha256)) fail('unknown-version', `file ${f.id} has a version ${v.id} of content it never held`);
      else if (Number(v.size) !== model.sent.get(v.sha256)) fail('partial-version', `version ${v.id} of file ${f.id} is ${v.size} bytes`);
    }
    if (have.length > kept.length) fail('extra-version', `file ${f.id} has ${have.length} versions for ${kept.length} replacements`);
  }
  // Downloads: a sample of live files every trial (all of them on the final check).
  const live = files.filter((f) => f.trashed_at === null);
  const sample = ctx.final ? live : live.filter(() => rand.chance(0.25)).slice(0, 12);
  for (const f of sample) {
    checked++;
    const r = await client.download(`/file-service/download/${f.id}`);
    if (r.status !== 200) fail('download-failed', `file ${f.id} answers ${r.status}`);
    else if (sha(r.body) !== f.sha256) fail('download-corrupt', `file ${f.id} downloads to other bytes than recorded`);
  }

  const liveIds = new Set(live.map((f) => f.id));
  const versionSample = versions.filter((v) => liveIds.has(v.file_id) && (ctx.final || rand.chance(0.25)));
  for (const v of versionSample) {
    checked++;
    const r = await client.download(`/file-service/versions/${v.file_id}/${v.id}/download`);
    if (r.status !== 200) fail('version-download-failed', `version ${v.id} of file ${v.file_id} answers ${r.status}`);
    else if (sha(r.body) !== v.sha256) fail('version-download-corrupt', `version ${v.id} of file ${v.file_id} downloads to other bytes`);
  }

  // Folders: no orphan, no cycle; a trashed folder's descendants are trashed.
  const byId = new Map(folders.map((f) => [f.id, f]));
  for (const f of folders) {
    checked++;
    if (f.parent_id !== null && !byId.has(f.parent_id)) fail('orphan-folder', `folder ${f.id} has missing parent ${f.parent_id}`);
    const seen = new Set([f.id]);
    for (let p = byId.get(f.parent_id); p; p = byId.get(p.parent_id)) {
      if (seen.has(p.id)) {
        fail('folder-cycle', `folder ${f.id} reaches itself through ${p.id}`);
        break;
      }
      seen.add(p.id);
    }
    const parent = byId.get(f.parent_id);
    if (parent && parent.trashed_at !== null && f.trashed_at === null)
      fail('trash-inconsistent', `folder ${f.id} is live under trashed ${parent.id}`);
  }
  for (const f of files) {
    checked++;
    if (f.folder_id !== null && !byId.has(f.folder_id)) fail('orphan-file', `file ${f.id} is in missing folder ${f.folder_id}`);
    const parent = byId.get(f.folder_id);
    if (parent && parent.trashed_at !== null && f.trashed_at === null)
      fail('trash-inconsistent', `file ${f.id} is live in trashed folder ${parent.id}`);
  }
  for (const id of [...model.folders]) if (!byId.has(id)) model.folders.delete(id);

  // Restore of a trashed tree gives back the whole tree.
  const topTrashed = folders.filter((f) => f.trashed_at !== null && !(byId.get(f.parent_id)?.trashed_at != null));
  if (topTrashed.length) {
    const top = rand.pick(topTrashed);
    // What the trashing of `top` (or of the ancestor that took it along) took: the folders and
    // files of its subtree marked with that trashing. An item trashed on its own before stays in
    // the trash, as in every drive.
    const cascades = new Set([top.id, ...(top.trashed_via ? [top.trashed_via] : [])]);
    const subtree = new Set([top.id]);
    for (let grew = true; grew;) {
      grew = false;
      for (const f of folders)
        if (!subtree.has(f.id) && subtree.has(f.parent_id)) {
          subtree.add(f.id);
          grew = true;
        }
    }
    const groupFolders = folders.filter((f) => subtree.has(f.id) && (f.id === top.id || cascades.has(f.trashed_via))).map((f) => f.id);
    const groupFiles = files.filter((f) => subtree.has(f.folder_id) && cascades.has(f.trashed_via)).map((f) => f.id);
    const r = await client.json('PATCH', '/folder-service/restore', { id: top.id });
    checked++;
    if (r.status !== 200) fail('restore-failed', `restore of ${top.id} answered ${r.status}`);
    else {
      const stillF = await query(
        `select id from folder where trashed_at is not null and id in (${groupFolders.map((i) => `'${i}'`).join(',')})`,
      );
      const stillFiles = groupFiles.length
        ? await query(`select id from file where trashed_at is not null and id in (${groupFiles.map((i) => `'${i}'`).join(',')})`)
        : [];
      if (stillF.length || stillFiles.length)
        fail('restore-partial', `restore of ${top.id} left ${stillF.length} folders, ${stillFiles.length} files in the trash`);
      model.folders.add(top.id);
    }
  }
  return checked;
}

/**
 * The worker's lease (src/jobs/worker.ts): renewed while a job runs, so a job a killed process
 * held is taken up again at most this long after the kill.
 */
const LEASE_MS = 60_000;

/**
 * Waits until no due job is left, apart from those still leased by a killed process whose lease
 * ends within LEASE_MS of the kill (`stranded`: they resume by themselves); a job held longer by a
 * dead process, or never run, does not drain and is returned as a violation.
 */
async function drainJobs(query, lastKillAt, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = Date.now();
    const due = await query(`select id, name, locked_until, attempts, last_error from job where failed_at is null and run_at <= ${now}`);
    const stranded = due.filter(
      (j) => j.locked_until !== null && Number(j.locked_until) > now && Number(j.locked_until) <= lastKillAt + LEASE_MS,
    );
    const rest = due.filter((j) => !stranded.includes(j));
    if (!rest.length || Date.now() > deadline) {
      const failed = await query(`select id, name, last_error from job where failed_at is not null`);
      return { due: rest, stranded, failed };
    }
    await sleep(200);
  }
}

async function integrityCheck(env, { repair = false } = {}) {
  const run = promisify(execFile);
  const args = ['check', '--json', '--grace-hours', '0', ...(repair ? ['--repair'] : [])];
  const result = await run(process.execPath, [path.join(DIST, 'cli', 'run.js'), ...args], {
    env,
    maxBuffer: 64 * MiB,
  }).catch((err) => err);
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(`integrity check failed to run: ${result.stderr ?? result.message}`);
  }
}

/**
 * Violations that are known and reported rather than fixed. Bytes stored before their row commits
 * (an upload, a thumbnail) have no durable record, so a kill between the two leaves a blob no row
 * refers to: the run counts them (`straysCollected`), has the cleanup (`check --repair`, which the
 * scrub runs after its grace period) remove them, and then proves every file still downloads whole.
 */
export const KNOWN_VIOLATIONS = [];

// ---------------------------------------------------------------------------------------------

/**
 * Runs `trials` kill-and-restart rounds on one backend (`kind`: {db, storage}) and returns the
 * figures and every violation found. Never throws for a violation: the caller decides.
 */
export async function runCrashTrials({
  seed,
  trials,
  kind,
  concurrency = 3,
  killWindowMs = [150, 1500],
  drainTimeoutMs = 60_000,
  weights = {},
  log = () => {},
}) {
  const mix = weighted({ ...WEIGHTS, ...weights });
  const started = Date.now();
  const rand = prng(seed);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-crash-'));
  const backends = await createBackends(kind, dir);
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: path.join(dir, 'data'),
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    LOG_LEVEL: 'fatal',
    PASSWORD_HASH_COST: '10',
    SEMANTIC_SEARCH: 'off',
    SCRUB_INTERVAL_MS: '0',
    SECRET_KEY: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ...backends.env,
  };
  const server = new ServerProcess(env, Number(env.PORT));
  const stats = {
    seed,
    kind: `${kind.db}+${kind.storage}`,
    trials: 0,
    kills: 0,
    operations: 0,
    answered: 0,
    cut: 0,
    invariants: 0,
    /** Jobs a killed process held at the end, waiting out its (at most one-minute) lease. */
    strandedJobs: 0,
    /** Blobs left without a row by a kill, removed by the cleanup at the end. */
    straysCollected: 0,
    /** Times the S3 stand-in (s3rver) crashed and was started again. */
    s3Restarts: 0,
    /** Versions the final check verified: contents replacing files kept. */
    versions: 0,
    violations: [],
  };
  try {
    await server.start();
    const client = new Client(server);
    await client.signUp();
    client.id = (await client.json('GET', '/user-service/user')).body._id;
    const model = new Model();
    const ops = operations(client, model, rand);
    let lastKillAt = 0;
    for (let trial = 1; trial <= trials; trial++) {
      stats.trials++;
      await client.renew();
      let killed = false;
      const runner = async () => {
        while (!killed) {
          const name = rand.pick(mix);
          stats.operations++;
          const r = await ops[name]().catch(() => ({ cut: true }));
          if (r.cut) stats.cut++;
          else if (!r.skipped) stats.answered++;
        }
      };
      const runners = Array.from({ length: concurrency }, runner);
      await sleep(rand.int(killWindowMs[0], killWindowMs[1]));
      killed = true;
      await server.kill();
      lastKillAt = Date.now();
      stats.kills++;
      await Promise.all(runners);
      await server.start();
      // Unfinished resumable uploads resume where the server left them.
      for (const upload of model.tus.filter((u) => !u.done)) {
        // The killed process's piece keeps its 15 s lease (423, which tus clients retry).
        let r = await sendTusRest(client, model, upload);
        for (let wait = 0; r.status === 423 && wait < 20; wait++) {
          await sleep(1000);
          r = await sendTusRest(client, model, upload);
        }
        if (r.status === 404) upload.done = true;
        else if (!upload.done) {
          // The server's log line about a 5xx may reach the pipe after the answer did.
          await sleep(500);
          stats.violations.push({
            trial,
            kind: 'tus-resume-failed',
            detail: `${upload.location} answered ${r.status ?? 'nothing'}${serverErrors(server.output)}`,
          });
        }
      }
      const ctx = { client, model, query: backends.query, rand, trial, final: trial === trials };
      stats.invariants += await checkInvariants(ctx, stats.violations);
      log(`trial ${trial}/${trials}: ${stats.operations} operations, ${stats.violations.length} violations`);
    }
    // Background work resumes and finishes, then rows and blobs match exactly (grace 0).
    const jobs = await drainJobs(backends.query, lastKillAt, drainTimeoutMs);
    stats.invariants += 2;
    stats.strandedJobs = jobs.stranded.length;
    for (const j of jobs.due)
      stats.violations.push({
        trial: 'end',
        kind: 'job-not-drained',
        detail: `${j.name} (attempts ${j.attempts}, locked until ${j.locked_until})`,
      });
    for (const j of jobs.failed) stats.violations.push({ trial: 'end', kind: 'job-failed', detail: `${j.name}: ${j.last_error}` });
    await server.stop();
    const report = await integrityCheck(env);
    stats.invariants += report.counts.files + (report.counts.versions ?? 0) + report.counts.blobsListed;
    stats.versions = report.counts.versions ?? 0;
    const strays = report.problems.filter((p) => p.kind === 'stray-blob');
    stats.straysCollected = strays.length;
    for (const p of report.problems.filter((q) => q.kind !== 'stray-blob'))
      stats.violations.push({ trial: 'end', kind: `integrity:${p.kind}`, detail: `${p.role} ${p.key ?? ''} ${p.detail}` });
    if (strays.length) {
      // The cleanup removes what no row refers to, and nothing else: afterwards the check is
      // clean and every file the client holds still downloads to its SHA-256.
      await integrityCheck(env, { repair: true });
      const after = await integrityCheck(env);
      stats.invariants += 1 + after.counts.files;
      for (const p of after.problems)
        stats.violations.push({ trial: 'end', kind: `after-repair:${p.kind}`, detail: `${p.role} ${p.key ?? ''} ${p.detail}` });
      await server.start();
      await client.renew();
      const ctx = { client, model, query: backends.query, rand, trial: 'after-repair', final: true };
      stats.invariants += await checkInvariants(ctx, stats.violations);
      await server.stop();
    }
  } finally {
    if (server.child && server.child.exitCode === null) await server.kill().catch(() => {});
    await backends.close();
    // CRASH_KEEP keeps the run's data (database, blobs, s3rver's folder) to look into afterwards.
    if (process.env.CRASH_KEEP) log(`data kept in ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
  stats.s3Restarts = backends.s3Restarts();
  stats.durationMs = Date.now() - started;
  return stats;
}
