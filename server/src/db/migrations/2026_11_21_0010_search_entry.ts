import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * What AI search knows about each file and folder: the words it matches on (full-text indexed),
 * the filters it honours (kind, content date, place) and one embedding. Items are files or
 * folders, so entries carry no foreign key to either; searches join the live rows, which keeps
 * trashed or deleted items out, and the backfill job removes orphans.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable('search_entry')
    .addColumn('item_id', 'text', (c) => c.primaryKey())
    .addColumn('item_type', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('kind', 'text')
    .addColumn('content_date', 'bigint')
    .addColumn('place', 'text')
    // What the analysis of the bytes found (text, labels, metadata words); reused on rename and move.
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('analysis_version', 'integer', (c) => c.notNull())
    .addColumn('source_updated_at', 'bigint', (c) => c.notNull())
    .addColumn('model_id', 'text')
    .addColumn('embedding', postgres ? 'bytea' : 'blob')
    .addColumn('indexed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('search_entry_owner_idx').on('search_entry').columns(['owner_id', 'indexed_at']).execute();
  await db.schema.createIndex('search_entry_filter_idx').on('search_entry').columns(['owner_id', 'kind', 'content_date']).execute();

  if (postgres) {
    await sql`ALTER TABLE search_entry ADD COLUMN body_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED`.execute(db);
    await sql`CREATE INDEX search_entry_tsv_idx ON search_entry USING gin (body_tsv)`.execute(db);
    return;
  }
  // Word search with English stemming over the entries' own rows, kept in step by triggers.
  await sql`CREATE VIRTUAL TABLE search_entry_fts USING fts5(body, content = 'search_entry', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2')`.execute(db);
  await sql`CREATE TRIGGER search_entry_fts_insert AFTER INSERT ON search_entry BEGIN
    INSERT INTO search_entry_fts (rowid, body) VALUES (new.rowid, new.body); END`.execute(db);
  await sql`CREATE TRIGGER search_entry_fts_delete AFTER DELETE ON search_entry BEGIN
    INSERT INTO search_entry_fts (search_entry_fts, rowid, body) VALUES ('delete', old.rowid, old.body); END`.execute(db);
  await sql`CREATE TRIGGER search_entry_fts_update AFTER UPDATE OF body ON search_entry BEGIN
    INSERT INTO search_entry_fts (search_entry_fts, rowid, body) VALUES ('delete', old.rowid, old.body);
    INSERT INTO search_entry_fts (rowid, body) VALUES (new.rowid, new.body); END`.execute(db);
}
