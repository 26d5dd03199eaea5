// What the benchmarks that run the built server in its own process share: starting it on a free
// port, waiting for it to answer, and signing up an account. Not a benchmark itself.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { serverEnv, serverNodeArgs } from '../../scripts/server-runtime.mjs';

const dist = path.resolve(import.meta.dirname, '../dist');

export async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * Starts `dist/main.js` on a free port with `env` over the usual bench settings and waits until
 * /health answers. `stop()` ends it and waits for its exit.
 */
export async function startServer({ dataDir, env = {}, nodeArgs = [] }) {
  const port = await freePort();
  // Started as `npm start` starts it (its Node flags and environment), unless the caller overrides them.
  const child = spawn(process.execPath, [...serverNodeArgs, ...nodeArgs, path.join(dist, 'main.js')], {
    env: {
      ...serverEnv,
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEMANTIC_SEARCH: 'off',
      // Benchmarks never reach the model hub; one that measures the image–text model passes its own.
      SMART_SEARCH_MODEL: 'off',
      ...env,
    },
    stdio: 'inherit',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** A new account: its e-mail, id and the headers a signed-in browser sends (session cookie and `uuid`). */
export async function signUp(base) {
  const uuid = randomUUID();
  const email = `bench-${uuid}@example.com`;
  const created = await fetch(`${base}/user-service/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', uuid },
    body: JSON.stringify({ email, password: 'bench-password' }),
  });
  const cookie = created.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { email, id: (await created.json()).user._id, session: { uuid, cookie } };
}

/** Signs an existing account in with a new browser id; answers the headers that browser sends. */
export async function signIn(base, email, password = 'bench-password') {
  const uuid = randomUUID();
  const response = await fetch(`${base}/user-service/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', uuid },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`login of ${email} answered ${response.status}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { uuid, cookie };
}

/**
 * A fresh PostgreSQL database named `prefix_…` on the server at `adminUrl`, for one run; null when
 * that server cannot be reached. `drop` removes it, `close` only lets go of the admin connection.
 */
export async function freshPostgres(adminUrl, prefix) {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `${prefix}_${Date.now().toString(36)}`;
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
    close: () => admin.end(),
  };
}
