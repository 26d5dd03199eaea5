import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { snapshotDatabase } from '../../src/backup/db-snapshot.js';
import { BackupError } from '../../src/backup/manifest.js';
import { pgDumpCommand, pgRestoreCommand, pgToolEnv } from '../../src/backup/pg-command.js';
import { runTool } from '../../src/backup/run-tool.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase } from '../helpers/test-app.js';

const SECRET = 'pa$$ w0rd/with@odd:chars';
const URL_WITH_SECRET = `postgresql://nimbus:${encodeURIComponent(SECRET)}@db.internal:6543/drive?sslmode=verify-full&application_name=nimbus+backup`;

describe('pg_dump and pg_restore get the connection through their environment', () => {
  it('never put the password, or the URL, on the command line; the environment carries every part', () => {
    for (const command of [
      pgDumpCommand(URL_WITH_SECRET, '00000003-0000001B-1', '/backups/b/database.pgdump'),
      pgRestoreCommand(URL_WITH_SECRET, '/backups/b/database.pgdump'),
    ]) {
      const argv = command.args.join(' ');
      expect(argv).not.toContain('pa$$');
      expect(argv).not.toContain(encodeURIComponent(SECRET));
      expect(argv).not.toContain('postgresql://');
      expect(argv).not.toContain('db.internal');
      expect(command.env).toEqual({
        PGHOST: 'db.internal',
        PGPORT: '6543',
        PGUSER: 'nimbus',
        PGPASSWORD: SECRET,
        PGDATABASE: 'drive',
        PGSSLMODE: 'verify-full',
        PGAPPNAME: 'nimbus+backup',
      });
    }
    expect(pgRestoreCommand(URL_WITH_SECRET, 'dump').args).toContain('--dbname=');
  });

  it('reads the forms libpq accepts: IPv6, a socket directory, parts left to the environment', () => {
    expect(pgToolEnv('postgres://[::1]:5433/db')).toEqual({ PGHOST: '::1', PGPORT: '5433', PGDATABASE: 'db' });
    expect(pgToolEnv('postgres://%2Fvar%2Frun%2Fpostgresql/db')).toEqual({ PGHOST: '/var/run/postgresql', PGDATABASE: 'db' });
    expect(pgToolEnv('postgres:///db?host=/tmp&user=me')).toEqual({ PGHOST: '/tmp', PGUSER: 'me', PGDATABASE: 'db' });
    expect(pgToolEnv('postgres://localhost')).toEqual({ PGHOST: 'localhost' });
  });

  it('refuses what libpq would not take, with a message that names it and not the password', () => {
    expect(() => pgToolEnv(`postgres://u:${encodeURIComponent(SECRET)}@h/db?ssl=true`)).toThrow(
      new BackupError('DATABASE_URL has the parameter "ssl", which pg_dump and pg_restore do not know'),
    );
    expect(() => pgToolEnv('mysql://h/db')).toThrow(BackupError);
    expect(() => pgToolEnv('postgres://u:%E0%A4%A@h/db')).toThrow(new BackupError('DATABASE_URL has a malformed password'));
  });

  describe('against the real server', () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    });

    it('dumps and restores with a URL that holds a password and parameters', { timeout: 60_000 }, async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-pg-command-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const withPassword = async () => {
        const db = await createTestDatabase(dir, 'postgres');
        cleanups.push(db.drop);
        if (db.config.driver !== 'postgres') throw new Error('a PostgreSQL database was asked for');
        const url = new URL(db.config.url);
        url.password = SECRET;
        url.search = '?sslmode=disable&application_name=nimbus+backup+test';
        return url.toString();
      };
      const source = await withPassword();
      const handle = openDatabase({ driver: 'postgres', url: source });
      await migrateToLatest(handle.db);
      await handle.close();

      const dump = path.join(dir, 'database.pgdump');
      const facts = await snapshotDatabase({ driver: 'postgres', url: source }, dump);
      expect(facts.counts).toEqual({ accounts: 0, folders: 0, files: 0, versions: 0 });
      expect((await stat(dump)).size).toBeGreaterThan(0);

      const target = await withPassword();
      await runTool(pgRestoreCommand(target, dump));
      const client = new pg.Client({ connectionString: target });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: string }>(
          `SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_name = 'account'`,
        );
        expect(Number(rows[0]?.n)).toBe(1);
      } finally {
        await client.end();
      }
    });
  });
});
