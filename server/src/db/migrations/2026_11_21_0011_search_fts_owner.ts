import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * SQLite: the owner becomes a column of the word index, so a search narrows to one owner's
 * entries inside FTS5 and ranks only those, instead of ranking every user's matches and joining.
 * PostgreSQL filters by owner through its own indexes already.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  for (const trigger of ['insert', 'delete', 'update']) await sql`DROP TRIGGER ${sql.raw(`search_entry_fts_${trigger}`)}`.execute(db);
  await sql`DROP TABLE search_entry_fts`.execute(db);
  await sql`CREATE VIRTUAL TABLE search_entry_fts USING fts5(owner_id, body, content = 'search_entry', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2')`.execute(db);
  await sql`CREATE TRIGGER search_entry_fts_insert AFTER INSERT ON search_entry BEGIN
    INSERT INTO search_entry_fts (rowid, owner_id, body) VALUES (new.rowid, new.owner_id, new.body); END`.execute(db);
  await sql`CREATE TRIGGER search_entry_fts_delete AFTER DELETE ON search_entry BEGIN
    INSERT INTO search_entry_fts (search_entry_fts, rowid, owner_id, body) VALUES ('delete', old.rowid, old.owner_id, old.body); END`.execute(
    db,
  );
  await sql`CREATE TRIGGER search_entry_fts_update AFTER UPDATE OF body, owner_id ON search_entry BEGIN
    INSERT INTO search_entry_fts (search_entry_fts, rowid, owner_id, body) VALUES ('delete', old.rowid, old.owner_id, old.body);
    INSERT INTO search_entry_fts (rowid, owner_id, body) VALUES (new.rowid, new.owner_id, new.body); END`.execute(db);
  await sql`INSERT INTO search_entry_fts (search_entry_fts) VALUES ('rebuild')`.execute(db);
}
