import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * PostgreSQL does not count `IS NULL` as an equality when it matches an index's order, so a page of
 * a folder (`trashed_at IS NULL`, and `folder_id IS NULL` at the root) was read whole and sorted.
 * Partial indexes over active files let it walk 50 rows in order instead (0.1 ms for a page of a
 * 300,000-file drive, from 5–60 ms). SQLite already uses its indexes for these lists.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const active = 'trashed_at IS NULL';
  const root = 'trashed_at IS NULL AND folder_id IS NULL';
  await sql
    .raw(`CREATE INDEX file_active_by_date_idx ON file (owner_id, folder_id, uploaded_at, name_key, id) WHERE ${active}`)
    .execute(db);
  await sql
    .raw(`CREATE INDEX file_active_by_name_idx ON file (owner_id, folder_id, name_key, uploaded_at, id) WHERE ${active}`)
    .execute(db);
  await sql.raw(`CREATE INDEX file_root_by_date_idx ON file (owner_id, uploaded_at, name_key, id) WHERE ${root}`).execute(db);
  await sql.raw(`CREATE INDEX file_root_by_name_idx ON file (owner_id, name_key, uploaded_at, id) WHERE ${root}`).execute(db);
}
