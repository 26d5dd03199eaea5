import type { UserDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../backup/cli-support.js';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import { createTestDatabase, testConfig, testDialect, type TestApp } from '../helpers/test-app.js';
import { accountOf, type SignedUp } from './support.js';

/** `npm run nimbus -- admin grant|revoke EMAIL`, the built CLI against the test's database. */
describe('npm run nimbus -- admin', () => {
  let t: TestApp;
  let first: SignedUp;
  let second: SignedUp;

  beforeAll(async () => {
    // Where the CLI looks for the database: DATA_DIR/nimbus.sqlite, or DATABASE_URL.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-admin-cli-'));
    const database =
      testDialect() === 'sqlite'
        ? { config: { driver: 'sqlite' as const, path: path.join(dataDir, 'nimbus.sqlite') }, drop: async () => {} }
        : await createTestDatabase(dataDir);
    const config = testConfig(dataDir, database.config, { search: { enabled: false, embeddings: null } });
    const app = await buildApp(config);
    t = {
      app,
      config,
      dataDir,
      async close() {
        await app.close();
        await database.drop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
    first = await accountOf(t, 'admin');
    second = await accountOf(t, 'user');
  });
  afterAll(() => t.close());

  const cli = (...args: string[]) => {
    const env: Record<string, string> = {
      DATA_DIR: t.dataDir,
      SECRET_KEY: t.config.secrets.secretKey,
      ENCRYPTION_KEY: t.config.secrets.encryptionKey.toString('hex'),
    };
    if (t.config.db.driver === 'postgres') env.DATABASE_URL = t.config.db.url;
    return runCli(['admin', ...args], env, t.dataDir);
  };
  const roleOf = async (account: SignedUp) => (await account.browser.get('/user-service/user')).json<UserDto>().role;

  it('grants and revokes the role, keeping the last administrator unless forced', async () => {
    const granted = await cli('grant', second.email.toUpperCase());
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stdout).toContain('is now an administrator');
    expect(await roleOf(second)).toBe('admin');
    expect((await cli('grant', second.email)).stdout).toContain('already');

    expect((await cli('revoke', second.email)).code).toBe(0);
    expect(await roleOf(second)).toBe('user');

    const last = await cli('revoke', first.email);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain('last active administrator');
    expect(await roleOf(first)).toBe('admin');
    const forced = await cli('revoke', first.email, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(await roleOf(first)).toBe('user');
    expect((await cli('grant', first.email)).code).toBe(0);
    expect(await roleOf(first)).toBe('admin');
  });

  it('refuses an unknown e-mail and bad usage', async () => {
    const unknown = await cli('grant', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account');
    expect((await cli('promote', first.email)).code).toBe(2);
    expect((await cli('grant')).code).toBe(2);
    expect((await cli('grant', first.email, '--sudo')).code).toBe(2);
  });
});
