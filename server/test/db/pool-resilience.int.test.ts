import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, testDialect, type TestApp } from '../helpers/test-app.js';

describe.runIf(testDialect() === 'postgres')('when PostgreSQL drops idle connections', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('keeps serving on fresh connections', async () => {
    const browser = new TestBrowser(t.app);
    await browser.signUp();
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.app.database.db);
    const admin = new pg.Client({ connectionString: process.env.NIMBUS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' });
    await admin.connect();
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [
      rows[0]!.name,
    ]);
    await admin.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await browser.get('/user-service/user')).statusCode).toBe(200);
  });
});
