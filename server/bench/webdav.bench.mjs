// WebDAV: PROPFIND Depth 1 of a 100,000-file folder (first byte, whole answer, server memory) and
// an rclone round trip of a 1 GiB tree of mixed sizes (files/s, MB/s), against the built server in
// its own process, on SQLite. Prints figures; asserts nothing.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { signUp, startServer } from './support.mjs';

const FILES = Number(process.env.BENCH_DAV_FILES ?? 100_000);
const TREE_BYTES = Number(process.env.BENCH_DAV_TREE_BYTES ?? 1024 * 1024 * 1024);
const MB = 1024 * 1024;
/** The server's JavaScript heap cap: an answer larger than it can only go out streamed. */
const HEAP_MB = Number(process.env.BENCH_DAV_HEAP_MB ?? 64);

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)[1]) / 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

function propfind(url, auth) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = http.request(url, { method: 'PROPFIND', headers: { authorization: auth, depth: '1' } }, (res) => {
      let first = null;
      let bytes = 0;
      let responses = 0;
      let tail = '';
      res.on('data', (chunk) => {
        first ??= performance.now() - start;
        bytes += chunk.length;
        const text = tail + chunk.toString();
        responses += text.split('<D:response>').length - 1;
        tail = text.slice(-11);
      });
      res.on('end', () => resolve({ status: res.statusCode, first, total: performance.now() - start, bytes, responses }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-bench-dav-'));
const server = await startServer({ dataDir: path.join(dir, 'data'), nodeArgs: [`--max-old-space-size=${HEAP_MB}`] });
const base = server.base;
try {
  const { email, id: owner, session } = await signUp(base);
  const appPassword = await fetch(`${base}/user-service/app-passwords`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...session },
    body: JSON.stringify({ name: 'bench' }),
  }).then(async (r) => (await r.json()).password);
  const auth = `Basic ${Buffer.from(`${email}:${appPassword}`).toString('base64')}`;
  await fetch(`${base}/dav/big/`, { method: 'MKCOL', headers: { authorization: auth } });

  // 100,000 rows straight into the database (PROPFIND reads rows, never bytes).
  const db = new Database(path.join(dir, 'data', 'nimbus.sqlite'));
  const folderId = db.prepare('select id from folder where owner_id = ? and name = ?').get(owner, 'big').id;
  const insert = db.prepare(
    `insert into file (id, owner_id, folder_id, filename, name_key, size, content_type, media_kind, sha256, storage_key,
       wrapped_key, uploaded_at, updated_at) values (?, ?, ?, ?, ?, ?, 'application/pdf', null, ?, ?, 'x', ?, ?)`,
  );
  const now = Date.now();
  db.transaction(() => {
    for (let i = 0; i < FILES; i++) {
      const name = `document-${String(i).padStart(6, '0')}.pdf`;
      const id = randomBytes(13).toString('hex').slice(0, 25);
      insert.run(id, owner, folderId, name, name, 1000 + i, randomBytes(32).toString('hex'), id, now - i, now - i);
    }
  })();
  db.close();

  const before = memory(server.child.pid);
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push({ ...(await propfind(`${base}/dav/big/`, auth)), rss: memory(server.child.pid).rss });
  const after = memory(server.child.pid);
  console.log(`\nWebDAV PROPFIND Depth 1 of a ${FILES.toLocaleString('en')}-file folder (SQLite, server heap capped at ${HEAP_MB} MB):`);
  for (const r of runs) {
    console.log(
      `  status ${r.status}: first byte ${r.first.toFixed(1)} ms, whole answer ${(r.total / 1000).toFixed(2)} s, ` +
        `${(r.bytes / MB).toFixed(1)} MB, ${r.responses.toLocaleString('en')} responses, server RSS after ${r.rss.toFixed(0)} MB`,
    );
  }
  console.log(`  server RSS before ${before.rss.toFixed(0)} MB, after ${after.rss.toFixed(0)} MB (peak ${after.peak.toFixed(0)} MB)`);

  if (!existsSync('/usr/bin/rclone')) {
    console.log('rclone is not installed: its round trip is skipped');
  } else {
    // A tree of mixed sizes: a few large files, many medium and many small ones.
    const src = path.join(dir, 'tree');
    const sizes = [];
    let left = TREE_BYTES;
    for (const [size, share] of [
      [64 * MB, 0.5],
      [2 * MB, 0.35],
      [64 * 1024, 0.15],
    ]) {
      for (let n = Math.floor((TREE_BYTES * share) / size); n > 0 && left >= size; n--, left -= size) sizes.push(size);
    }
    for (let i = 0; i < sizes.length; i++) {
      const sub = path.join(src, `group-${i % 10}`);
      await mkdir(sub, { recursive: true });
      await writeFile(path.join(sub, `file-${i}.bin`), randomBytes(sizes[i]));
    }
    const total = sizes.reduce((a, b) => a + b, 0);
    const env = {
      ...process.env,
      RCLONE_CONFIG_NIMBUS_TYPE: 'webdav',
      RCLONE_CONFIG_NIMBUS_URL: `${base}/dav/`,
      RCLONE_CONFIG_NIMBUS_VENDOR: 'other',
      RCLONE_CONFIG_NIMBUS_USER: email,
      RCLONE_CONFIG_NIMBUS_PASS: spawnSync('rclone', ['obscure', appPassword]).stdout.toString().trim(),
    };
    const timed = (args) => {
      const t = performance.now();
      const result = spawnSync('rclone', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
      if (result.status !== 0) throw new Error(`rclone ${args[0]} failed`);
      return (performance.now() - t) / 1000;
    };
    const up = timed(['copy', src, 'nimbus:tree', '--transfers', '4']);
    const back = path.join(dir, 'back');
    const down = timed(['copy', 'nimbus:tree', back, '--transfers', '4']);
    const same = spawnSync('diff', ['-r', src, back]).status === 0;
    console.log(`\nrclone round trip of ${sizes.length} files, ${(total / MB).toFixed(0)} MB (4 transfers):`);
    console.log(`  upload   ${(sizes.length / up).toFixed(1)} files/s, ${(total / MB / up).toFixed(1)} MB/s`);
    console.log(`  download ${(sizes.length / down).toFixed(1)} files/s, ${(total / MB / down).toFixed(1)} MB/s`);
    console.log(`  copy back byte-identical: ${same ? 'yes' : 'NO'}; server peak RSS ${memory(server.child.pid).peak.toFixed(0)} MB`);
  }
} finally {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
}
