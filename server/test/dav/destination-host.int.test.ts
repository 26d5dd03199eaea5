import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { LOCK_BODY, startDavApp, type DavAccount, type DavHarness } from './dav-support.js';

const http = (trustProxy: Config['http']['trustProxy']): Config['http'] => ({
  port: 0,
  host: '127.0.0.1',
  appUrl: 'https://drive.example.com',
  secureCookies: false,
  trustProxy,
  bodyTimeoutMs: 60_000,
  idleTimeoutMs: 5 * 60_000,
});

describe('WebDAV Destination on another server', () => {
  let h: DavHarness;
  let me: DavAccount;
  beforeAll(async () => {
    h = await startDavApp({ http: http(false) });
    me = await h.account();
    await me.dav.put('/dav/top.txt', 'top');
  });
  afterAll(() => h.close());

  it('answers 502 to COPY and MOVE, and copies or moves nothing', async () => {
    for (const method of ['COPY', 'MOVE']) {
      const response = await me.dav.request(method, '/dav/top.txt', { headers: { destination: 'http://evil.example/dav/moved.txt' } });
      expect(response.status, method).toBe(502);
      expect(response.text).toContain('another server');
    }
    expect((await me.dav.get('/dav/moved.txt')).status).toBe(404);
    expect((await me.dav.get('/dav/top.txt')).text).toBe('top');
  });

  it('takes this server by the Host the client used, by APP_URL, or a path alone', async () => {
    expect((await me.dav.request('COPY', '/dav/top.txt', { headers: { destination: `${h.origin}/dav/by-host.txt` } })).status).toBe(201);
    expect(
      (await me.dav.request('COPY', '/dav/top.txt', { headers: { destination: 'https://drive.example.com/dav/by-app-url.txt' } })).status,
    ).toBe(201);
    expect((await me.dav.request('COPY', '/dav/top.txt', { headers: { destination: '/dav/by-path.txt' } })).status).toBe(201);
    for (const name of ['by-host', 'by-app-url', 'by-path']) expect((await me.dav.get(`/dav/${name}.txt`)).text).toBe('top');
  });

  it('believes X-Forwarded-Host only from a trusted proxy', async () => {
    const headers = { destination: 'http://proxied.example/dav/forwarded.txt', 'x-forwarded-host': 'proxied.example' };
    expect((await me.dav.request('COPY', '/dav/top.txt', { headers })).status).toBe(502);

    const proxied = await startDavApp({ http: http(true) });
    try {
      const them = await proxied.account();
      await them.dav.put('/dav/top.txt', 'top');
      expect((await them.dav.request('COPY', '/dav/top.txt', { headers })).status).toBe(201);
      expect((await them.dav.get('/dav/forwarded.txt')).text).toBe('top');
    } finally {
      await proxied.close();
    }
  });

  it('an If header tagged with another server names nothing here', async () => {
    await me.dav.put('/dav/locked.txt', 'v1');
    const lock = await me.dav.request('LOCK', '/dav/locked.txt', { body: LOCK_BODY() });
    const token = lock.headers.get('lock-token')!;
    expect((await me.dav.put('/dav/locked.txt', 'v2', { if: `<http://evil.example/dav/locked.txt> (${token})` })).status).toBe(412);
    expect((await me.dav.put('/dav/locked.txt', 'v2', { if: `<${h.origin}/dav/locked.txt> (${token})` })).status).toBe(204);
  });
});
