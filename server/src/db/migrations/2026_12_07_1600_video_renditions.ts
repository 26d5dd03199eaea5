import type { Kysely } from 'kysely';

/**
 * Browser-playable renditions of videos (HEVC, MKV, AVI…): one row per probed video, with the
 * outcome and the encrypted rendition's blob. Its own table rather than columns of file_media,
 * whose row the thumbnail job writes once: the two jobs run apart and in either order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_rendition')
    .addColumn('file_id', 'text', (c) => c.primaryKey().references('file.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('method', 'text')
    .addColumn('error', 'text')
    .addColumn('blob_key', 'text', (c) => c.unique())
    .addColumn('wrapped_key', 'text')
    .addColumn('size', 'bigint')
    .addColumn('sha256', 'text')
    .addColumn('content_type', 'text')
    .addColumn('processed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_rendition_owner_idx').on('file_rendition').column('owner_id').execute();
}
