import { createHash, randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from '../helpers/multipart.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-app.js';
import { startS3Server, type S3Server } from '../storage/storage-fixtures.js';
import { freePort } from '../smoke/process.js';

const MAIN = path.resolve(import.meta.dirname, '../../dist/main.js');

async function startServer(env: Record<string, string>): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, process: child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('server did not start');
}

/** Cookies as a browser would keep them, across two origins of the same deployment. */
class Jar {
  private cookies = new Map<string, string>();
  readonly uuid = crypto.randomUUID();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      this.cookies.set(name!.trim(), value.join('='));
    }
  }
  async call(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      headers: { uuid: this.uuid, cookie: this.header(), ...(init.headers as Record<string, string>) },
    });
    this.store(response);
    return response;
  }
}

describe.skipIf(process.env.NIMBUS_SKIP_POSTGRES === '1')('two server processes sharing PostgreSQL and S3', () => {
  let dataDir: string;
  let database: TestDatabase;
  let s3: S3Server;
  let a: { url: string; process: ChildProcess };
  let b: { url: string; process: ChildProcess };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-scale-'));
    database = await createTestDatabase(dataDir, 'postgres');
    s3 = await startS3Server();
    if (database.config.driver !== 'postgres') throw new Error('expected PostgreSQL');
    const env = {
      DATABASE_URL: database.config.url,
      SECRET_KEY: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      STORAGE: 's3',
      S3_BUCKET: s3.config.bucket,
      S3_ENDPOINT: s3.config.endpoint!,
      S3_REGION: s3.config.region,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      SMART_SEARCH_MODEL: 'off',
    };
    a = await startServer({ ...env, DATA_DIR: path.join(dataDir, 'a') });
    b = await startServer({ ...env, DATA_DIR: path.join(dataDir, 'b') });
  }, 60_000);

  afterAll(async () => {
    a?.process.kill('SIGTERM');
    b?.process.kill('SIGTERM');
    await Promise.all([a, b].map((s) => s && new Promise((resolve) => s.process.once('exit', resolve))));
    await s3?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves through one what was uploaded through the other, and shares sessions', async () => {
    const jar = new Jar();
    const created = await jar.call(`${a.url}/user-service/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `scale-${Date.now()}@example.com`, password: 'secret-pass' }),
    });
    expect(created.status).toBe(201);

    const data = randomBytes(1024 * 1024 + 17);
    const { body, contentType } = await multipartBody([
      { name: 'parent', value: '/' },
      { name: 'file', filename: 'shared.bin', data },
    ]);
    const uploaded = await jar.call(`${a.url}/file-service/upload`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(body),
    });
    expect(uploaded.status).toBe(201);
    const file = (await uploaded.json()) as { _id: string };

    const listed = await jar.call(`${b.url}/file-service/list`);
    expect(((await listed.json()) as { _id: string }[]).map((f) => f._id)).toEqual([file._id]);
    const downloaded = await jar.call(`${b.url}/file-service/download/${file._id}`);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(data)).toBe(true);

    // A session begun on A refreshes on B, and the rotated token works back on A.
    expect((await jar.call(`${b.url}/user-service/get-token`, { method: 'POST' })).status).toBe(200);
    expect((await jar.call(`${a.url}/user-service/user`)).status).toBe(200);
  });

  it('a WebDAV lock taken through one server blocks a PUT through the other', async () => {
    const jar = new Jar();
    const email = `dav-${Date.now()}@example.com`;
    await jar.call(`${a.url}/user-service/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'secret-pass' }),
    });
    const created = await jar.call(`${b.url}/user-service/app-passwords`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'two servers' }),
    });
    const { password } = (await created.json()) as { password: string };
    const auth = { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` };
    const dav = (url: string, method: string, headers: Record<string, string> = {}, body?: string) =>
      fetch(`${url}/dav/shared-lock.txt`, { method, headers: { ...auth, ...headers }, body });

    expect((await dav(a.url, 'PUT', {}, 'v1')).status).toBe(201);
    const lock = await dav(
      a.url,
      'LOCK',
      { 'content-type': 'application/xml' },
      '<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
    );
    expect(lock.status).toBe(200);
    const token = lock.headers.get('lock-token')!;
    expect((await dav(b.url, 'PUT', {}, 'v2')).status).toBe(423);
    expect((await dav(b.url, 'PUT', { if: `(${token})` }, 'v2')).status).toBe(204);
    expect((await dav(b.url, 'UNLOCK', { 'lock-token': token })).status).toBe(204);
    expect((await dav(a.url, 'PUT', {}, 'v3')).status).toBe(204);
    expect(await (await dav(b.url, 'GET')).text()).toBe('v3');
  });

  it('a link limited to 3 downloads serves exactly 3 of 20 concurrent requests across both servers', async () => {
    const jar = new Jar();
    await jar.call(`${a.url}/user-service/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `limit-${Date.now()}@example.com`, password: 'secret-pass' }),
    });
    const data = randomBytes(64 * 1024);
    const { body, contentType } = await multipartBody([
      { name: 'parent', value: '/' },
      { name: 'file', filename: 'limited.bin', data },
    ]);
    const uploaded = await jar.call(`${a.url}/file-service/upload`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(body),
    });
    const file = (await uploaded.json()) as { _id: string };
    const created = await jar.call(`${b.url}/share-service/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ itemType: 'file', itemId: file._id, maxDownloads: 3 }),
    });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const response = await fetch(`${i % 2 ? a.url : b.url}/share-service/public/${token}/files/${file._id}/download`);
        const bytes = Buffer.from(await response.arrayBuffer());
        return { status: response.status, whole: bytes.equals(data) };
      }),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
    expect(answers.filter((r) => r.status === 200).every((r) => r.whole)).toBe(true);
    expect(answers.filter((r) => r.status === 410)).toHaveLength(17);
  });

  it('a resumable upload begun through one server is finished through the other (S3, no shared memory)', async () => {
    const jar = new Jar();
    await jar.call(`${a.url}/user-service/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `tus-${Date.now()}@example.com`, password: 'secret-pass' }),
    });
    const data = randomBytes(3 * 1024 * 1024 + 4321);
    const tus = { 'tus-resumable': '1.0.0' };
    const piece = { ...tus, 'content-type': 'application/offset+octet-stream' };
    const created = await jar.call(`${a.url}/file-service/tus`, {
      method: 'POST',
      headers: {
        ...tus,
        'upload-length': String(data.length),
        'upload-metadata': `filename ${Buffer.from('across.bin').toString('base64')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const first = await jar.call(`${a.url}${location}`, {
      method: 'PATCH',
      headers: { ...piece, 'upload-offset': '0' },
      body: new Uint8Array(data.subarray(0, 2 * 1024 * 1024)),
    });
    expect(first.status).toBe(204);
    const offset = Number(first.headers.get('upload-offset'));
    expect(offset).toBe(2 * 1024 * 1024);
    const head = await jar.call(`${b.url}${location}`, { method: 'HEAD', headers: tus });
    expect(head.headers.get('upload-offset')).toBe(String(offset));
    const rest = await jar.call(`${b.url}${location}`, {
      method: 'PATCH',
      headers: { ...piece, 'upload-offset': String(offset) },
      body: new Uint8Array(data.subarray(offset)),
    });
    expect(rest.status).toBe(204);
    const fileId = rest.headers.get('nimbus-file-id')!;
    const downloaded = await jar.call(`${a.url}/file-service/download/${fileId}`);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(data)).toBe(true);
    expect(downloaded.headers.get('etag')).toBe(`"${createHash('sha256').update(data).digest('hex')}"`);
  });
});
