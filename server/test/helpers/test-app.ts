import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type AppDeps } from '../../src/app.js';
import type { Config, DatabaseConfig } from '../../src/config.js';

export type TestDialect = 'sqlite' | 'postgres';

/**
 * The database of the vitest project running the current file. Read per call, through the
 * project's provided value: workers share a module cache across files (isolate: false).
 */
export function testDialect(): TestDialect {
  return inject('testDialect') === 'postgres' ? 'postgres' : 'sqlite';
}
const PG_ADMIN_URL = process.env.NIMBUS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  config: DatabaseConfig;
  drop(): Promise<void>;
}

/** A brand-new empty database of the dialect under test, dropped afterwards. */
export async function createTestDatabase(dataDir: string, dialect: TestDialect = testDialect()): Promise<TestDatabase> {
  if (dialect === 'sqlite') return { config: { driver: 'sqlite', path: path.join(dataDir, 'test.sqlite') }, drop: async () => {} };
  const name = `nimbus_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    config: { driver: 'postgres', url: url.toString() },
    async drop() {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export function testConfig(dataDir: string, db: DatabaseConfig, overrides: Partial<Config> = {}): Config {
  return {
    http: {
      port: 0,
      host: '127.0.0.1',
      appUrl: 'http://localhost:3000',
      secureCookies: false,
      trustProxy: false,
      bodyTimeoutMs: 60_000,
      idleTimeoutMs: 5 * 60_000,
    },
    logLevel: 'silent',
    dataDir,
    db,
    storage: { driver: 'fs', root: path.join(dataDir, 'files') },
    mail: null,
    secrets: { secretKey: 'test-secret-key-that-is-long-enough-0123456789', encryptionKey: randomBytes(32) },
    signup: 'open',
    // Test files sign up many accounts from one address; the limit's own test turns it on.
    accountRateLimit: 0,
    trashRetentionDays: 30,
    maxUploadBytes: null,
    storageQuotaBytes: null,
    resumableUploadExpiryHours: 24,
    search: { enabled: true, embeddings: null },
    webRoot: null,
    // Thousands of sign-ups and logins: the suite hashes at scrypt's lowest accepted cost.
    passwordHashCost: 10,
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/** The whole server on a fresh database and temp data directory, driven with `inject`. */
export async function createTestApp(overrides: Partial<Config> = {}, deps: AppDeps = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-test-'));
  const database = await createTestDatabase(dataDir);
  const config = testConfig(dataDir, database.config, overrides);
  const app = await buildApp(config, deps);
  return {
    app,
    config,
    dataDir,
    async close() {
      await app.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDialect: TestDialect;
  }
}
