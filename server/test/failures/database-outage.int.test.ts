import type { ApiErrorBody } from '@nimbus/common';
import SQLite from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { listFolders, createFolder } from '../helpers/drive.js';
import { createTestApp, createTestDatabase, testConfig, testDialect, type TestApp, type TestDatabase } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { TcpProxy } from './tcp-proxy.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

function expectUnavailable(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(503);
  expect(response.json<ApiErrorBody>().code).toBe('UNAVAILABLE');
}

describe.runIf(testDialect() === 'postgres')('PostgreSQL out of reach for a while', () => {
  let proxy: TcpProxy;
  let database: TestDatabase;
  let dataDir: string;
  let app: FastifyInstance;
  let me: TestBrowser;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-outage-'));
    database = await createTestDatabase(dataDir, 'postgres');
    const direct = new URL(database.config.driver === 'postgres' ? database.config.url : '');
    proxy = new TcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.start();
    // The server reaches PostgreSQL only through the proxy, which the test cuts; the shared
    // PostgreSQL server itself is never stopped.
    direct.host = `127.0.0.1:${proxy.port}`;
    app = await buildApp(
      testConfig(dataDir, { driver: 'postgres', url: direct.toString() }, { search: { enabled: false, embeddings: null } }),
    );
    me = new TestBrowser(app);
    await me.signUp();
    await createFolder(me, 'Before');
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 quickly while it is away, and serves again by itself once it is back', async () => {
    await proxy.cut();
    const started = Date.now();
    expectUnavailable(await me.get('/folder-service/list'));
    expectUnavailable(await me.post('/folder-service/create', { name: 'During', parent: '/' }));
    expectUnavailable(await me.post('/user-service/login', { email: 'nobody@example.com', password: 'whatever' }));
    expect(Date.now() - started).toBeLessThan(5_000);

    await proxy.restore();
    // No restart: the pool threw away the broken connections and opens new ones.
    expect((await listFolders(me)).map((f) => f.name)).toEqual(['Before']);
    await createFolder(me, 'After');
    expect((await listFolders(me, { sortBy: 'alp_asc' })).map((f) => f.name)).toEqual(['After', 'Before']);
  });

  it('gets through a second outage just the same (connections in the pool when it went)', async () => {
    // Several idle connections are pooled now; every one of them breaks at once.
    await Promise.all([listFolders(me), listFolders(me), listFolders(me)]);
    await proxy.cut();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expectUnavailable(await me.get('/folder-service/list'));
    await proxy.restore();
    expect((await me.get('/folder-service/list')).statusCode).toBe(200);
  });
});

describe.runIf(testDialect() === 'sqlite')('SQLite locked by another process past the busy timeout', () => {
  let t: TestApp;
  let me: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null } });
    me = new TestBrowser(t.app);
    await me.signUp();
  });
  afterAll(() => t?.close());

  it('answers a write 503 while the lock is held, and takes it once the lock goes', async () => {
    if (t.config.db.driver !== 'sqlite') throw new Error('expected SQLite');
    const other = new SQLite(t.config.db.path);
    try {
      other.prepare('begin immediate').run();
      // Reads go on beside a writer (WAL); a write waits the busy timeout (5 s), then gives up.
      expect((await me.get('/folder-service/list')).statusCode).toBe(200);
      expectUnavailable(await me.post('/folder-service/create', { name: 'Locked out', parent: '/' }));
      other.prepare('rollback').run();
    } finally {
      other.close();
    }
    await createFolder(me, 'Unlocked');
    expect((await listFolders(me)).map((f) => f.name)).toEqual(['Unlocked']);
  }, 30_000);
});
