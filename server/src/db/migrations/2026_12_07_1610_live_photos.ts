import type { Kysely } from 'kysely';

/**
 * Live Photos and motion photos. `file_motion` records what the motion job found in a photo or
 * video (the Apple content identifier that ties a Live Photo's still to its MOV, or the clip an
 * Android motion photo carries, stored as its own encrypted blob), so the job runs once per
 * content. `live_photo` pairs a still with its MOV, each file in at most one pair; both go with
 * either file by cascade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_motion')
    .addColumn('file_id', 'text', (c) => c.primaryKey().references('file.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('content_id', 'text')
    .addColumn('clip_id', 'text', (c) => c.unique())
    .addColumn('clip_wrapped_key', 'text')
    .addColumn('clip_size', 'bigint')
    .addColumn('clip_sha256', 'text')
    .addColumn('processed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_motion_content_idx').on('file_motion').columns(['owner_id', 'content_id']).execute();
  await db.schema
    .createTable('live_photo')
    .addColumn('photo_file_id', 'text', (c) => c.primaryKey().references('file.id').onDelete('cascade'))
    .addColumn('video_file_id', 'text', (c) => c.notNull().unique().references('file.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('content_id', 'text', (c) => c.notNull())
    .addColumn('paired_at', 'bigint', (c) => c.notNull())
    .execute();
}
