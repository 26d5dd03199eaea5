import type { Kysely } from 'kysely';

/**
 * What the thumbnail job made of a file: one row per processed file, so the job can tell that
 * it already ran and the failure reason of a corrupt or unsupported file stays visible.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_media')
    .addColumn('file_id', 'text', (c) => c.primaryKey().references('file.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('thumbnail_id', 'text', (c) => c.unique())
    .addColumn('thumbnail_wrapped_key', 'text')
    .addColumn('thumbnail_size', 'bigint')
    .addColumn('thumbnail_sha256', 'text')
    .addColumn('thumbnail_width', 'integer')
    .addColumn('thumbnail_height', 'integer')
    .addColumn('preview_id', 'text')
    .addColumn('preview_wrapped_key', 'text')
    .addColumn('preview_size', 'bigint')
    .addColumn('preview_sha256', 'text')
    .addColumn('preview_content_type', 'text')
    .addColumn('processed_at', 'bigint', (c) => c.notNull())
    .execute();
}
