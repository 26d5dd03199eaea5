import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDavApp, type DavAccount, type DavHarness } from '../dav/dav-support.js';

interface Trickled {
  /** The answer's status line and headers, as far as they came. */
  head: string;
  /** When the server closed the connection, or null if it was still open at the limit. */
  closedAfterMs: number | null;
}

/**
 * Opens a raw connection, sends `head` (which declares a long body) and a first few body bytes,
 * then one more byte every `everyMs`: the server has everything it needs to answer, and never
 * the whole body.
 */
function trickle(origin: string, head: string, { everyMs = 100, limitMs = 10_000 } = {}): Promise<Trickled> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const started = Date.now();
    let received = '';
    // Half-open: like a client that ignores the server's end and goes on sending.
    const socket = net.connect({ port: Number(port), host: hostname, allowHalfOpen: true }, () => socket.write(`${head}abc`));
    const timer = setInterval(() => socket.writable && socket.write('x'), everyMs);
    const give = setTimeout(() => finish(null), limitMs);
    const finish = (closedAfterMs: number | null) => {
      clearInterval(timer);
      clearTimeout(give);
      socket.destroy();
      resolve({ head: received.split('\r\n\r\n')[0]!, closedAfterMs });
    };
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('close', () => finish(Date.now() - started));
    socket.on('error', () => undefined);
  });
}

function statusOf(head: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
}

function basic(account: DavAccount): string {
  return `Basic ${Buffer.from(`${account.email}:${account.appPassword}`).toString('base64')}`;
}

/** An HTTP request through Node's client: the whole body is sent, whatever the server answers meanwhile. */
function send(
  origin: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: Buffer; agent?: http.Agent },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; reusedSocket: boolean }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers, ...(options.body ? { 'content-length': String(options.body.length) } : {}) };
    const req = http.request({ host: hostname, port, method: options.method, path: options.path, headers, agent: options.agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, reusedSocket: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('streaming routes that answer before the body has come', () => {
  let h: DavHarness;
  let me: DavAccount;
  beforeAll(async () => {
    // The normal 60 s body timeout and 5 min idle timeout: neither may be what closes these sockets.
    h = await startDavApp();
    me = await h.account();
  });
  afterAll(() => h.close());

  const declared = 'Content-Length: 100000\r\n';
  const multipart = 'Content-Type: multipart/form-data; boundary=b\r\nuuid: u\r\n';
  it.concurrent.each([
    ['an anonymous WebDAV PUT', `PUT /dav/x.txt HTTP/1.1\r\nHost: h\r\n${declared}\r\n`, 401],
    ['an anonymous PROPFIND', `PROPFIND /dav/ HTTP/1.1\r\nHost: h\r\nDepth: 1\r\n${declared}\r\n`, 401],
    ['an anonymous upload', `POST /file-service/upload HTTP/1.1\r\nHost: h\r\n${multipart}${declared}\r\n`, 401],
    [
      'an anonymous resumable piece',
      `PATCH /file-service/tus/abc HTTP/1.1\r\nHost: h\r\nuuid: u\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\n${declared}\r\n`,
      401,
    ],
    [
      'an upload through an unknown link',
      `POST /share-service/public/${'z'.repeat(32)}/upload HTTP/1.1\r\nHost: h\r\n${multipart}${declared}\r\n`,
      404,
    ],
    ['a body sent to a route that reads none', `GET /health HTTP/1.1\r\nHost: h\r\n${declared}\r\n`, 200],
  ])('%s is answered, and the connection closed instead of drained', async (_name, head, status) => {
    const result = await trickle(h.origin, head);
    expect(statusOf(result.head), result.head).toBe(status);
    expect(result.head.toLowerCase()).toContain('connection: close');
    expect(result.closedAfterMs).not.toBeNull();
  });

  it.concurrent('a signed-in WebDAV PUT refused before its body is read closes the connection too', async () => {
    const result = await trickle(h.origin, `PUT /dav/missing/x.txt HTTP/1.1\r\nHost: h\r\nAuthorization: ${basic(me)}\r\n${declared}\r\n`);
    expect(statusOf(result.head), result.head).toBe(409);
    expect(result.closedAfterMs).not.toBeNull();
  });

  it('keeps the connection of an answer whose body had all come', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const body = Buffer.from('<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>');
    const anonymous = await send(h.origin, { method: 'PROPFIND', path: '/dav/', headers: { depth: '0' }, body, agent });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.connection).not.toBe('close');
    const signedIn = await send(h.origin, {
      method: 'PROPFIND',
      path: '/dav/',
      headers: { depth: '0', authorization: basic(me) },
      body,
      agent,
    });
    expect(signedIn.status).toBe(207);
    expect(signedIn.reusedSocket).toBe(true);
    agent.destroy();
  });

  it('a client that sends a large PUT without credentials gets its 401, then stores the file when it retries', async () => {
    const bytes = randomBytes(8 * 1024 * 1024);
    const first = await send(h.origin, { method: 'PUT', path: '/dav/retried.bin', body: bytes });
    expect(first.status).toBe(401);
    expect(first.headers['www-authenticate']).toMatch(/^Basic/);
    const retry = await send(h.origin, { method: 'PUT', path: '/dav/retried.bin', headers: { authorization: basic(me) }, body: bytes });
    expect(retry.status).toBe(201);
    const stored = await me.dav.get('/dav/retried.bin');
    expect(stored.bytes.equals(bytes)).toBe(true);
  });

  it.skipIf(!existsSync('/usr/bin/curl'))('curl, asking the server which authentication it wants, uploads a large file', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'nimbus-curl-'));
    try {
      const file = path.join(work, 'big.bin');
      const bytes = randomBytes(6 * 1024 * 1024);
      await writeFile(file, bytes);
      // --anyauth sends the request without credentials first and retries after the 401.
      const args = ['-sS', '--anyauth', '-u', `${me.email}:${me.appPassword}`, '-T', file, '-o', '/dev/null', '-w', '%{http_code}'];
      const output = await new Promise<string>((resolve, reject) => {
        const child = spawn('curl', [...args, `${h.origin}/dav/curl.bin`]);
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.on('error', reject);
        child.on('close', () => resolve(out));
      });
      expect(output).toBe('201');
      expect((await me.dav.get('/dav/curl.bin')).bytes.equals(bytes)).toBe(true);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});

describe('WebDAV bodies under the body timeout', () => {
  let h: DavHarness;
  let me: DavAccount;
  beforeAll(async () => {
    h = await startDavApp({
      http: {
        port: 0,
        host: '127.0.0.1',
        appUrl: 'http://localhost:3000',
        secureCookies: false,
        trustProxy: false,
        bodyTimeoutMs: 500,
        idleTimeoutMs: 60_000,
      },
    });
    me = await h.account();
  });
  afterAll(() => h.close());

  it('cuts off an XML body that trickles in', async () => {
    const head = `PROPFIND /dav/ HTTP/1.1\r\nHost: h\r\nDepth: 0\r\nAuthorization: ${basic(me)}\r\nContent-Length: 100000\r\n\r\n`;
    const { closedAfterMs } = await trickle(h.origin, head);
    expect(closedAfterMs).not.toBeNull();
  });

  it('lets a PUT take its time while bytes keep coming', async () => {
    const head = `PUT /dav/slow.bin HTTP/1.1\r\nHost: h\r\nAuthorization: ${basic(me)}\r\nContent-Length: 100000\r\n\r\n`;
    // Steady bytes: still open after three body timeouts.
    const { closedAfterMs } = await trickle(h.origin, head, { limitMs: 1800 });
    expect(closedAfterMs).toBeNull();
  });
});
