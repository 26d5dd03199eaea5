import type { Kysely } from 'kysely';

/**
 * Progress of the integrity check (`nimbus check`) and of the background scrub, one row each, in
 * the database rather than a file in DATA_DIR: every server process (and the health route on any
 * of them) reads the same state, and a resumed check continues whichever machine runs it.
 * The indexes let the check ask "does any row refer to these keys?" a page of keys at a time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('integrity_state')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('cursor', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_storage_key_idx').on('file').column('storage_key').execute();
  await db.schema.createIndex('file_media_preview_idx').on('file_media').column('preview_id').execute();
  await db.schema.createIndex('tus_upload_storage_key_idx').on('tus_upload').column('storage_key').execute();
}
