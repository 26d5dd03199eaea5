import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../smoke/process.js';

const MAIN = path.resolve(import.meta.dirname, '../../dist/main.js');
const MiB = 1024 * 1024;

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SEMANTIC_SEARCH: 'off' },
    stdio: 'inherit',
  });
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

describe('a resumable upload survives the server being killed', () => {
  let dataDir: string;
  let server: ChildProcess | undefined;
  afterAll(async () => {
    server?.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('SIGKILL mid-upload, restart on the same data, resume to identical bytes', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-tus-kill-'));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    server = await startServer(dataDir, port);
    const uuid = randomUUID();
    const created = await fetch(`${origin}/user-service/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', uuid },
      body: JSON.stringify({ email: `kill-${uuid}@example.com`, password: 'secret-pass' }),
    });
    const cookie = created.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const headers = { uuid, cookie };
    const data = randomBytes(8 * MiB + 999);

    const begin = await fetch(`${origin}/file-service/tus`, {
      method: 'POST',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-length': String(data.length),
        'upload-metadata': `filename ${Buffer.from('killed.bin').toString('base64')}`,
      },
    });
    const location = begin.headers.get('location')!;

    // One long piece, sent slowly; the server dies with about 3 MiB of it received.
    await new Promise<void>((resolve) => {
      const req = http.request(`${origin}${location}`, {
        method: 'PATCH',
        headers: {
          ...headers,
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(data.length),
        },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      let sent = 0;
      const pump = () => {
        if (sent >= 3 * MiB) {
          server!.kill('SIGKILL');
          return;
        }
        req.write(data.subarray(sent, sent + 256 * 1024), () => setTimeout(pump, 5));
        sent += 256 * 1024;
      };
      pump();
    });
    await new Promise((resolve) => server!.once('exit', resolve));

    server = await startServer(dataDir, port);
    const head = await fetch(`${origin}${location}`, { method: 'HEAD', headers: { ...headers, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    const held = Number(head.headers.get('upload-offset'));
    // A killed process stored nothing of the piece it was reading (its segment was never
    // finished), and the upload stands where the last stored piece left it.
    expect(held % (64 * 1024)).toBe(0);

    const url = `${origin}${location}`;
    await new Promise<void>((resolve, reject) => {
      new tus.Upload(data, {
        uploadUrl: url,
        endpoint: `${origin}/file-service/tus`,
        headers,
        chunkSize: 2 * MiB,
        retryDelays: [0, 1000, 2000, 4000, 8000, 16000],
        onSuccess: () => resolve(),
        onError: reject,
      }).start();
    });
    const list = (await (await fetch(`${origin}/file-service/list`, { headers })).json()) as { _id: string; filename: string }[];
    const file = list.find((f) => f.filename === 'killed.bin')!;
    const downloaded = Buffer.from(await (await fetch(`${origin}/file-service/download/${file._id}`, { headers })).arrayBuffer());
    expect(createHash('sha256').update(downloaded).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
  }, 60_000);
});
