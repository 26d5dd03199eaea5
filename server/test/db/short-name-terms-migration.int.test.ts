import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { up as reindexShortTerms } from '../../src/db/migrations/2026_12_01_0900_sqlite_short_name_terms.js';
import { FileRepository } from '../../src/db/repositories/file.repository.js';
import { FolderRepository } from '../../src/db/repositories/folder.repository.js';
import { newId } from '../../src/security/ids.js';
import { fileRow } from '../helpers/rows.js';
import { testDialect } from '../helpers/test-app.js';

const BEFORE = '2026_11_30_0800_sqlite_recent_in_list_order';

let dir: string;
let handle: DatabaseHandle;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-migrate-'));
  handle = openDatabase({ driver: 'sqlite', path: path.join(dir, 'drive.sqlite') });
});

afterAll(async () => {
  await handle?.close();
  await rm(dir, { recursive: true, force: true });
});

async function terms(table: 'file' | 'folder', prefix: string): Promise<string[]> {
  const { rows } = await sql<{
    term: string;
  }>`select term from ${sql.table(`${table}_name_vocab`)} where term >= ${prefix} and term < ${`${prefix}\u{10ffff}`}`.execute(handle.db);
  return rows.map((r) => r.term);
}

// The migration re-indexes the names a drive already holds; the pairs at their ends are new.
it.skipIf(testDialect() !== 'sqlite')(
  'indexes the names already stored, with the pairs that end them, and those stored after',
  async () => {
    const db = handle.db;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
      migrationTableName: 'schema_migration',
      migrationLockTableName: 'schema_migration_lock',
    });
    const { error } = await migrator.migrateTo(BEFORE);
    expect(error).toBeUndefined();

    const ownerId = newId();
    const now = Date.now();
    // The account table as it was then: no role nor status yet.
    await (db as unknown as Kysely<Record<'account', Record<string, unknown>>>)
      .insertInto('account')
      .values({
        id: ownerId,
        email: 'a@example.com',
        emailKey: 'a@example.com',
        passwordHash: 'x',
        emailVerified: 1,
        verifyEmailSentAt: null,
        resetEmailSentAt: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const file = (filename: string) => fileRow(ownerId, filename, { uploadedAt: now });
    const files = new FileRepository(db, 'sqlite');
    // As a row was stored then, before files kept a CRC-32 or who stored their content.
    const { crc32, createdAt, contentAuthorId, contentVia, ...before } = file('Fizq');
    expect([crc32, contentVia]).toEqual([null, null]);
    expect([createdAt, contentAuthorId]).toEqual([now, ownerId]);
    await (db as unknown as Kysely<Record<'file', Record<string, unknown>>>).insertInto('file').values(before).execute();
    await new FolderRepository(db, 'sqlite').insert({
      id: newId(),
      ownerId,
      parentId: null,
      name: 'Oxyqw',
      nameKey: 'oxyqw',
      createdAt: now,
      updatedAt: now,
      trashedAt: null,
      trashedVia: null,
    });

    expect(await migrateToLatest(db)).toContain('2026_12_01_0900_sqlite_short_name_terms');
    expect(await terms('file', 'zq')).toEqual(['zq\u0001']);
    expect(await terms('file', 'q')).toEqual(['q\u0001\u0001']);
    expect(await terms('folder', 'qw')).toEqual(['qw\u0001']);
    expect(await terms('folder', 'yq')).toEqual(['yqw']);

    // A stop after the migration's work but before it is recorded runs it again.
    await reindexShortTerms(db as unknown as Kysely<unknown>);
    expect(await terms('file', 'zq')).toEqual(['zq\u0001']);

    await files.insert(file('Ab'));
    expect(await terms('file', 'ab')).toEqual(['ab\u0001']);
    const { rows } = await sql<{ n: number }>`select count(*) as n from file_name_fts where file_name_fts match '"fiz"'`.execute(db);
    expect(Number(rows[0]!.n)).toBe(1);
  },
);
