import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('folder')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('folder.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('trashed_at', 'bigint')
    .addColumn('trashed_via', 'text')
    .execute();
  await db.schema
    .createIndex('folder_children_idx')
    .on('folder')
    .columns(['owner_id', 'parent_id', 'trashed_at', 'name_key', 'id'])
    .execute();
  await db.schema.createIndex('folder_parent_idx').on('folder').column('parent_id').execute();
  await db.schema.createIndex('folder_trash_idx').on('folder').columns(['owner_id', 'trashed_via', 'trashed_at']).execute();

  await db.schema
    .createTable('file')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('folder_id', 'text', (c) => c.references('folder.id'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('media_kind', 'text')
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('wrapped_key', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('trashed_at', 'bigint')
    .addColumn('trashed_via', 'text')
    .addColumn('link_type', 'text')
    .addColumn('link_token', 'text')
    .addColumn('thumbnail_id', 'text')
    .execute();
  // One index per list query shape: a page costs the same at 10 or 10^6 files.
  await db.schema
    .createIndex('file_by_date_idx')
    .on('file')
    .columns(['owner_id', 'folder_id', 'trashed_at', 'uploaded_at', 'id'])
    .execute();
  await db.schema.createIndex('file_by_name_idx').on('file').columns(['owner_id', 'folder_id', 'trashed_at', 'name_key', 'id']).execute();
  await db.schema.createIndex('file_recent_idx').on('file').columns(['owner_id', 'trashed_at', 'uploaded_at', 'id']).execute();
  await db.schema.createIndex('file_media_idx').on('file').columns(['owner_id', 'media_kind', 'trashed_at', 'uploaded_at', 'id']).execute();
  await db.schema.createIndex('file_trash_idx').on('file').columns(['owner_id', 'trashed_via', 'trashed_at']).execute();
  await db.schema.createIndex('file_folder_idx').on('file').column('folder_id').execute();

  if (isPostgres(db)) {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX file_name_trgm_idx ON file USING gin (name_key gin_trgm_ops)`.execute(db);
    await sql`CREATE INDEX folder_name_trgm_idx ON folder USING gin (name_key gin_trgm_ops)`.execute(db);
  } else {
    // Substring search over names: trigram full-text indexes over the tables' own rows
    // (external content keyed by rowid), kept in step by triggers.
    for (const [table, column] of [
      ['file', 'name_key'],
      ['folder', 'name_key'],
    ] as const) {
      const fts = sql.raw(`${table}_name_fts`);
      const t = sql.raw(table);
      const c = sql.raw(column);
      await sql`CREATE VIRTUAL TABLE ${fts} USING fts5(${c}, content = '${t}', content_rowid = 'rowid', tokenize = 'trigram')`.execute(db);
      await sql`CREATE TRIGGER ${sql.raw(`${table}_fts_insert`)} AFTER INSERT ON ${t} BEGIN
        INSERT INTO ${fts} (rowid, ${c}) VALUES (new.rowid, new.${c}); END`.execute(db);
      await sql`CREATE TRIGGER ${sql.raw(`${table}_fts_delete`)} AFTER DELETE ON ${t} BEGIN
        INSERT INTO ${fts} (${fts}, rowid, ${c}) VALUES ('delete', old.rowid, old.${c}); END`.execute(db);
      await sql`CREATE TRIGGER ${sql.raw(`${table}_fts_update`)} AFTER UPDATE OF ${c} ON ${t} BEGIN
        INSERT INTO ${fts} (${fts}, rowid, ${c}) VALUES ('delete', old.rowid, old.${c});
        INSERT INTO ${fts} (rowid, ${c}) VALUES (new.rowid, new.${c}); END`.execute(db);
    }
  }
}
