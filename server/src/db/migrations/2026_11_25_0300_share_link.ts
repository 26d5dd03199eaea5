import type { Kysely } from 'kysely';

/**
 * Links to files and folders with options (password, expiry, download limit, view only) and
 * upload-only drop links, several per item; and who sent each file that came through a drop.
 * A file's own public or one-time link (the share popup's) stays in the file row, unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('share_link')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('item_type', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'bigint')
    .addColumn('max_downloads', 'integer')
    .addColumn('downloads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_download', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('max_file_bytes', 'bigint')
    .addColumn('max_files', 'integer')
    .addColumn('files_received', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_access_at', 'bigint')
    .execute();
  await db.schema.createIndex('share_link_owner_idx').on('share_link').columns(['owner_id', 'created_at']).execute();
  await db.schema.createIndex('share_link_item_idx').on('share_link').column('item_id').execute();

  await db.schema
    .createTable('drop_origin')
    .addColumn('file_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('link_id', 'text', (c) => c.notNull())
    .addColumn('uploader_name', 'text')
    .addColumn('uploaded_at', 'bigint', (c) => c.notNull())
    .execute();
}
