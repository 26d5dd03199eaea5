import { sql, type Kysely } from 'kysely';

/**
 * File versions: when a file's content is replaced, the old content (its blob, hash and size) is
 * kept as a row of `file_version` instead of being deleted. A version's blob is owned by that row
 * alone; deleting the row releases it. Each file also records who stored its current content
 * (`content_author_id`, and `content_via`, the name of the app password it came through, if any)
 * and when the file first appeared (`created_at`, which a replacement does not change), so that a
 * folder can be put back as it was at a given time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_version')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('file_id', 'text', (c) => c.notNull().references('file.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('crc32', 'bigint')
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('wrapped_key', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'bigint', (c) => c.notNull())
    .addColumn('replaced_at', 'bigint', (c) => c.notNull())
    .addColumn('author_id', 'text')
    .addColumn('via', 'text')
    .execute();
  await db.schema.createIndex('file_version_file_idx').on('file_version').columns(['file_id', 'uploaded_at']).execute();
  await db.schema.createIndex('file_version_owner_idx').on('file_version').columns(['owner_id', 'uploaded_at']).execute();

  await db.schema.alterTable('file').addColumn('content_author_id', 'text').execute();
  await db.schema.alterTable('file').addColumn('content_via', 'text').execute();
  await db.schema
    .alterTable('file')
    .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update file set created_at = uploaded_at`.execute(db);
}
