import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, freePort, killLeftRunning, startServer, waitFor, type ServerProcess } from './process.js';

/** Runs the built server as `npm start` does, once (not per database): SQLite in an empty DATA_DIR. */
// Generous: each test starts a Node process, which is slow on a loaded machine.
describe('node server/dist/main.js', { timeout: 120_000 }, () => {
  let dir: string;
  let server: ServerProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'nimbus-smoke-'));
  });
  afterEach(async () => {
    await killLeftRunning(server);
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function startHealthy(): Promise<number> {
    const port = await freePort();
    server = startServer(dir, cleanEnv({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: 'data' }));
    const s = server;
    await waitFor(s, 'GET /health', async () => ((await fetch(`http://127.0.0.1:${port}/health`)).ok ? true : undefined));
    return port;
  }

  it('answers /health with {"status":"ok"} and the security headers, having created its data', async () => {
    const port = await startHealthy();
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');

    const notFound = await fetch(`http://127.0.0.1:${port}/user-service/nope`);
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await notFound.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', requestId: expect.any(String) });

    expect(existsSync(path.join(dir, 'data', 'nimbus.sqlite'))).toBe(true);
    expect(existsSync(path.join(dir, 'data', 'secrets.json'))).toBe(true);
  });

  it('on SIGTERM finishes the request in flight, then exits 0', async () => {
    const port = await startHealthy();
    const s = server!;
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'secret1' });
    const socket = connect(port, '127.0.0.1');
    const received = collect(socket);
    // "Expect: 100-continue" makes the server confirm it is handling the request before the body is sent.
    socket.write(
      'POST /user-service/login HTTP/1.1\r\nhost: localhost\r\nuuid: smoke-test\r\ncontent-type: application/json\r\n' +
        `content-length: ${Buffer.byteLength(body)}\r\nexpect: 100-continue\r\nconnection: close\r\n\r\n`,
    );
    await waitFor(s, '100 Continue', async () => (received.text().includes('100 Continue') ? true : undefined));

    s.child.kill('SIGTERM');
    await waitFor(s, 'shutdown to begin', async () => (s.output().includes('shutting down') ? true : undefined));
    socket.write(body);

    const response = await received.done;
    expect(response).toMatch(/HTTP\/1\.1 401 /);
    expect(response).toContain('"code":"INVALID_CREDENTIALS"');
    // Past its grace period the server exits 1, so 0 means it stopped within the bound.
    expect(await s.exited).toBe(0);
  });

  it('exits 0 on SIGINT as well', async () => {
    await startHealthy();
    server!.child.kill('SIGINT');
    expect(await server!.exited).toBe(0);
  });

  it('refuses to start on invalid settings, naming every bad variable', async () => {
    server = startServer(dir, cleanEnv({ PORT: 'eighty', SIGNUP: 'maybe', DATA_DIR: 'data' }));
    const code = await server.exited;
    expect(code).not.toBe(0);
    expect(server.output()).toContain('Invalid configuration');
    expect(server.output()).toMatch(/PORT: .*whole number/);
    expect(server.output()).toMatch(/SIGNUP: /);
    expect(server.output()).not.toMatch(/\n\s+at /);
  });
});

function collect(socket: Socket): { text(): string; done: Promise<string> } {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const done = new Promise<string>((resolve, reject) => {
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  return { text: () => text, done };
}
