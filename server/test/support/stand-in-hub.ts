import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface StandInHubOptions {
  /** Repository id (`owner/name`) → the folder whose files it serves, at every revision. */
  repos: Record<string, string>;
  /** Serves under this path (`/mirror` → `http://127.0.0.1:port/mirror/api/...`), as a mirror behind a proxy may. */
  pathPrefix?: string;
  /** Splits file lists into pages of this many entries, linked with `Link: <…>; rel="next"`. */
  treePageSize?: number;
}

/**
 * A model hub on 127.0.0.1, laid out like the real one, for tests that must never reach the internet:
 * - `GET {url}/api/models/{repo}/tree/{rev}?recursive=true`: the files with size, git blob `oid`, and
 *   `lfs: { oid: sha256, size }` for LFS files (`*.onnx` and files over 1 MB);
 * - `GET {url}/{repo}/resolve/{rev}/{path}`: the file; LFS files answer 302 to `/cdn/{repo}/{path}` at
 *   the server's root (outside the prefix), as the hub sends them to its CDN;
 * - `Range: bytes=N-` / `bytes=N-M` answer 206 (416 past the end).
 */
export interface StandInHub {
  /** The hub's address with the prefix: what MODELS_URL is set to. */
  url: string;
  /** Each request, as `GET /path?query`, followed by ` [bytes=N-]` when a range was asked for. */
  requests: string[];
  /** Serves that file with one byte changed from now on (same size: only the hash tells). */
  corrupt(repo: string, file: string): void;
  /** The next `times` requests answer `status`. */
  failNext(status: number, times?: number): void;
  /** The next download of `file` (a path in the repository) breaks the connection after `bytes` bytes. */
  cutNext(file: string, bytes: number): void;
  /** Sends file bodies at most this fast (bytes per second); null: at full speed. */
  throttle(bytesPerSecond: number | null): void;
  close(): Promise<void>;
}

const LFS_MIN_BYTES = 1024 * 1024;

export async function startStandInHub(options: StandInHubOptions): Promise<StandInHub> {
  const prefix = (options.pathPrefix ?? '').replace(/\/+$/, '');
  const requests: string[] = [];
  const corrupted = new Set<string>();
  let failures: { status: number; times: number } | null = null;
  const cuts = new Map<string, number>();
  let bytesPerSecond: number | null = null;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://hub');
    requests.push(`${req.method} ${url.pathname}${url.search}${req.headers.range ? ` [${req.headers.range}]` : ''}`);
    if (failures && failures.times > 0) {
      failures.times -= 1;
      return answer(res, failures.status, { error: 'failing as told' });
    }
    route(req, res, url).catch((err: unknown) => {
      if (!res.headersSent) answer(res, 500, { error: String(err) });
      else res.destroy();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const cdn = /^\/cdn\/([^/]+\/[^/]+)\/(.+)$/.exec(url.pathname);
    if (cdn) return serveFile(req, res, decodeURIComponent(cdn[1]!), decodeURIComponent(cdn[2]!), false);
    if (!url.pathname.startsWith(`${prefix}/`)) return answer(res, 404, { error: 'not found' });
    const rest = url.pathname.slice(prefix.length);
    const tree = /^\/api\/models\/([^/]+\/[^/]+)\/tree\/([^/]+)$/.exec(rest);
    if (tree) return listTree(res, url, decodeURIComponent(tree[1]!));
    const resolve = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(rest);
    if (resolve) return serveFile(req, res, decodeURIComponent(resolve[1]!), decodeURIComponent(resolve[3]!), true);
    answer(res, 404, { error: 'not found' });
  }

  async function listTree(res: ServerResponse, url: URL, repo: string): Promise<void> {
    const root = options.repos[repo];
    if (!root) return answer(res, 404, { error: 'Repository not found' });
    const entries = await treeOf(root, url.searchParams.get('recursive') === 'true');
    const from = Number(url.searchParams.get('cursor') ?? 0);
    const size = options.treePageSize ?? entries.length;
    const page = entries.slice(from, from + size);
    if (from + size < entries.length) {
      const next = new URL(`http://${res.req.headers.host}${url.pathname}`);
      next.search = url.search;
      next.searchParams.set('cursor', String(from + size));
      res.setHeader('link', `<${next.toString()}>; rel="next"`);
    }
    answer(res, 200, page);
  }

  async function serveFile(req: IncomingMessage, res: ServerResponse, repo: string, file: string, viaResolve: boolean): Promise<void> {
    const root = options.repos[repo];
    const full = root ? path.resolve(root, file) : null;
    if (!root || !full || !full.startsWith(path.resolve(root) + path.sep)) return answer(res, 404, { error: 'Entry not found' });
    let body: Buffer;
    try {
      body = await readFile(full);
    } catch {
      return answer(res, 404, { error: 'Entry not found' });
    }
    if (viaResolve && isLfs(file, body.length)) {
      res.writeHead(302, { location: `http://${req.headers.host}/cdn/${repo}/${file.split('/').map(encodeURIComponent).join('/')}` });
      return void res.end();
    }
    if (corrupted.has(`${repo}/${file}`) && body.length > 0) {
      body = Buffer.from(body);
      body[body.length >> 1] = body[body.length >> 1]! ^ 0xff;
    }
    let status = 200;
    const headers: Record<string, string | number> = { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes' };
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), body.length - 1) : body.length - 1;
      if (start >= body.length || start > end) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` });
        return void res.end();
      }
      headers['content-range'] = `bytes ${start}-${end}/${body.length}`;
      body = body.subarray(start, end + 1);
      status = 206;
    }
    headers['content-length'] = body.length;
    res.writeHead(status, headers);
    const cut = cuts.get(file) ?? null;
    cuts.delete(file);
    await send(res, cut === null ? body : body.subarray(0, cut));
    if (cut !== null) res.destroy();
    else res.end();
  }

  async function send(res: ServerResponse, body: Buffer): Promise<void> {
    const chunk = 16 * 1024;
    for (let at = 0; at < body.length; at += chunk) {
      if (res.destroyed) return;
      const part = body.subarray(at, at + chunk);
      if (!res.write(part)) await new Promise((resolve) => res.once('drain', resolve));
      if (bytesPerSecond) await new Promise((resolve) => setTimeout(resolve, (part.length / bytesPerSecond!) * 1000));
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    requests,
    corrupt: (repo, file) => void corrupted.add(`${repo}/${file}`),
    failNext: (status, times = 1) => void (failures = { status, times }),
    cutNext: (file, bytes) => void cuts.set(file, bytes),
    throttle: (bps) => void (bytesPerSecond = bps),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface TreeEntry {
  type: 'file' | 'directory';
  path: string;
  size: number;
  oid: string;
  lfs?: { oid: string; size: number; pointerSize: number };
}

function isLfs(file: string, size: number): boolean {
  return file.endsWith('.onnx') || size > LFS_MIN_BYTES;
}

async function treeOf(root: string, recursive: boolean): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const dirent of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, dirent.name);
      const rel = path.relative(root, full).split(path.sep).join('/');
      if (dirent.isDirectory()) {
        entries.push({ type: 'directory', path: rel, size: 0, oid: sha1(`tree ${rel}`) });
        if (recursive) await walk(full);
      } else if (dirent.isFile()) {
        const bytes = await readFile(full);
        const size = (await stat(full)).size;
        if (isLfs(rel, size)) {
          const sha256 = createHash('sha256').update(bytes).digest('hex');
          const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${size}\n`;
          entries.push({
            type: 'file',
            path: rel,
            size,
            oid: gitBlobId(Buffer.from(pointer)),
            lfs: { oid: sha256, size, pointerSize: pointer.length },
          });
        } else entries.push({ type: 'file', path: rel, size, oid: gitBlobId(bytes) });
      }
    }
  };
  await walk(root);
  return entries;
}

function gitBlobId(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
