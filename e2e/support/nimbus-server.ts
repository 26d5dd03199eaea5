import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MailReceiver } from './mail-receiver';
import { repoRoot, serverMain, webRoot } from './paths';

export interface NimbusServer {
  baseUrl: string;
  mail: MailReceiver;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output()}`);
    const ok = await fetch(`${baseUrl}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`the server did not become healthy:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The real server as a child process, with a temporary data directory and a real SMTP receiver.
 * `hostname: 'localhost'` serves it (APP_URL and baseUrl) under that name: WebAuthn accepts no IP
 * address as a site's identity. `env` adds to (or overrides) the server's environment.
 */
export async function startNimbus(options: { hostname?: string; env?: Record<string, string> } = {}): Promise<NimbusServer> {
  const mail = new MailReceiver();
  const smtpUrl = await mail.start();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'nimbus-e2e-'));
  const port = await freePort();
  const baseUrl = `http://${options.hostname ?? '127.0.0.1'}:${port}`;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    WEB_ROOT: webRoot,
    SMTP_URL: smtpUrl,
    MAIL_FROM: 'nimbus@localhost',
    APP_URL: baseUrl,
    LOG_LEVEL: 'warn',
    // Many sign-ups and logins: hashed at scrypt's lowest accepted cost.
    PASSWORD_HASH_COST: '10',
    // Never the model hub: a spec that needs the image–text model serves one from a stand-in hub.
    SMART_SEARCH_MODEL: 'off',
    // Extra configuration a spec needs, e.g. a single sign-on provider.
    ...options.env,
  };
  const child = spawn(process.execPath, [serverMain], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForHealth(`http://127.0.0.1:${port}`, child, () => output);

  return {
    baseUrl,
    mail,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await mail.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
