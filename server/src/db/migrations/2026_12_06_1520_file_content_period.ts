import type { Kysely } from 'kysely';

/**
 * When a version becomes a file's content again (a restore), its row goes: the blob is the file's
 * now, and a row owns its blob alone. The time that content was the file's before would be lost
 * with the row, and with it what the file held then: `file_content_period` keeps it (which bytes,
 * from when until when), so a folder can be put back as it was at a time more than once, and a
 * second run of the same restore finds every file already as it was. It owns no blob.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_content_period')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('file_id', 'text', (c) => c.notNull().references('file.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('from_at', 'bigint', (c) => c.notNull())
    .addColumn('until_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_content_period_file_idx').on('file_content_period').columns(['file_id', 'from_at']).execute();
}
