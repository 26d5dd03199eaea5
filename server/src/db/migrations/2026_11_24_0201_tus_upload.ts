import type { Kysely } from 'kysely';

/**
 * Resumable (tus) uploads in progress: their place, their length, how much is stored and under
 * which key. In the database, so any server process can take the next piece, and a restarted one
 * resumes where the client left off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tus_upload')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('folder_id', 'text')
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('length', 'bigint', (c) => c.notNull())
    .addColumn('offset', 'bigint', (c) => c.notNull())
    .addColumn('segments', 'integer', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('wrapped_key', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('file_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tus_upload_expires_idx').on('tus_upload').column('expires_at').execute();
  await db.schema.createIndex('tus_upload_owner_idx').on('tus_upload').column('owner_id').execute();
}
