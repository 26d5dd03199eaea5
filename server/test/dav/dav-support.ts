import type { CreatedAppPasswordDto } from '@nimbus/common';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

export interface DavAccount {
  browser: TestBrowser;
  id: string;
  email: string;
  password: string;
  appPassword: string;
  dav: DavClient;
}

export interface DavHarness extends TestApp {
  /** `http://127.0.0.1:port`: real HTTP, so real WebDAV clients can connect too. */
  origin: string;
  account(): Promise<DavAccount>;
}

export interface DavResponse {
  status: number;
  headers: Headers;
  text: string;
  bytes: Buffer;
}

/** A minimal WebDAV client over fetch: the method, headers and body exactly as given. */
export class DavClient {
  constructor(
    readonly origin: string,
    private readonly authorization: string | null,
  ) {}

  static basic(origin: string, user: string, password: string): DavClient {
    return new DavClient(origin, `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`);
  }

  /** Sends the path exactly as given (fetch would resolve `..` and `%2e%2e` before sending). */
  request(method: string, path: string, options: { headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<DavResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.authorization) headers.authorization = this.authorization;
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    if (body) headers['content-length'] = String(body.length);
    const url = new URL(this.origin);
    return new Promise((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const responseHeaders = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) responseHeaders.set(k, Array.isArray(v) ? v.join(', ') : v);
          resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text: bytes.toString('utf8'), bytes });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  propfind(path: string, depth = '1', body?: string): Promise<DavResponse> {
    return this.request('PROPFIND', path, { headers: { depth, 'content-type': 'application/xml' }, ...(body ? { body } : {}) });
  }

  put(path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<DavResponse> {
    return this.request('PUT', path, { headers, body });
  }

  get(path: string, headers: Record<string, string> = {}): Promise<DavResponse> {
    return this.request('GET', path, { headers });
  }
}

/** The hrefs of a multistatus body, decoded, in order. */
export function hrefs(xml: string): string[] {
  return [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((m) => decodeURIComponent(m[1]!.replace(/&amp;/g, '&')));
}

export const LOCK_BODY = (scope: 'exclusive' | 'shared' = 'exclusive', owner = 'tester') =>
  `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope>` +
  `<D:locktype><D:write/></D:locktype><D:owner><D:href>${owner}</D:href></D:owner></D:lockinfo>`;

export async function startDavApp(overrides: Partial<Config> = {}): Promise<DavHarness> {
  const testApp = await createTestApp({ search: { enabled: false, embeddings: null }, ...overrides });
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
  return {
    ...testApp,
    origin,
    async account() {
      const browser = new TestBrowser(testApp.app);
      const { id, email, password } = await browser.signUp();
      const created = await browser.post('/user-service/app-passwords', { name: 'WebDAV test' });
      if (created.statusCode !== 201) throw new Error(`app password failed: ${created.statusCode} ${created.body}`);
      const appPassword = created.json<CreatedAppPasswordDto>().password;
      return { browser, id, email, password, appPassword, dav: DavClient.basic(origin, email, appPassword) };
    },
  };
}

/** Runs a real client (litmus, rclone) to its end, its stdout and stderr together. */
export function runTool(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * rclone with a remote `nimbus:` on the server's WebDAV as `account` (its config kept in `work`):
 * each call must succeed, and answers rclone's output.
 */
export async function rcloneAs(origin: string, account: { email: string; appPassword: string }, work: string) {
  const env = {
    RCLONE_CONFIG: path.join(work, 'rclone.conf'),
    RCLONE_CONFIG_NIMBUS_TYPE: 'webdav',
    RCLONE_CONFIG_NIMBUS_URL: `${origin}/dav/`,
    RCLONE_CONFIG_NIMBUS_VENDOR: 'other',
    RCLONE_CONFIG_NIMBUS_USER: account.email,
    RCLONE_CONFIG_NIMBUS_PASS: (await runTool('rclone', ['obscure', account.appPassword])).output.trim(),
  };
  return async (...args: string[]): Promise<string> => {
    const result = await runTool('rclone', args, { env });
    expect(result.code, result.output).toBe(0);
    return result.output;
  };
}
