import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';

export const CLI = path.resolve(import.meta.dirname, '../../dist/cli/run.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run nimbus -- …` as the built CLI does, with only the given environment. */
export function runCli(args: string[], env: Record<string, string>, cwd: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', SEMANTIC_SEARCH: 'off', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A signed-in client of a real server process, over HTTP. */
export class HttpUser {
  readonly uuid = randomUUID();
  private cookie = '';

  constructor(readonly origin: string) {}

  async send(method: string, url: string, body?: BodyInit | object): Promise<Response> {
    const json = body !== undefined && !(body instanceof FormData);
    return fetch(`${this.origin}${url}`, {
      method,
      headers: { uuid: this.uuid, cookie: this.cookie, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: json ? JSON.stringify(body) : (body as BodyInit | undefined),
    });
  }

  async signIn(path: '/user-service/create' | '/user-service/login', email: string, password: string): Promise<void> {
    const response = await this.send('POST', path, { email, password });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    this.cookie = response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  }

  async createFolder(name: string, parent = '/'): Promise<string> {
    const response = await this.send('POST', '/folder-service/create', { name, parent });
    if (response.status !== 201) throw new Error(`create folder: ${response.status}`);
    return ((await response.json()) as { _id: string })._id;
  }

  async upload(filename: string, data: Buffer, parent = '/'): Promise<string> {
    const form = new FormData();
    form.set('filename', filename);
    form.set('parent', parent);
    form.set('currentID', randomUUID());
    form.set('size', String(data.length));
    form.set('file', new Blob([new Uint8Array(data)]), 'blob');
    const response = await this.send('POST', '/file-service/upload', form);
    if (response.status !== 201) throw new Error(`upload ${filename}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { _id: string })._id;
  }

  async download(id: string): Promise<Buffer> {
    const response = await this.send('GET', `/file-service/download/${id}`);
    if (!response.ok) throw new Error(`download ${id}: ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  }
}
