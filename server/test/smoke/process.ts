import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';

export const MAIN = path.resolve(import.meta.dirname, '../../dist/main.js');

/**
 * Only what the server needs, so the developer's own DATABASE_URL, SMTP_URL… cannot leak in; the
 * image–text model off, so a server never reaches for the model hub.
 */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, PASSWORD_HASH_COST: '10', SMART_SEARCH_MODEL: 'off', ...extra };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface ServerProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
}

export function startServer(cwd: string, env: NodeJS.ProcessEnv): ServerProcess {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the server first (npm run build)`);
  const child = spawn(process.execPath, [MAIN], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, output: () => output, exited };
}

/** Kills a server a test left running (SIGKILL) and waits for it to end; nothing when there is none. */
export async function killLeftRunning(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGKILL');
  await server.exited;
}

/** Polls until `check` returns a value, the process ends, or the (generous) deadline passes. */
export async function waitFor<T>(server: ServerProcess, what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  let ended = false;
  void server.exited.then(() => (ended = true));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (ended) throw new Error(`server exited while waiting for ${what}:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
