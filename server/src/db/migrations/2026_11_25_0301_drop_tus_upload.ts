import type { Kysely } from 'kysely';

/** A resumable upload may come through a drop link: which one, and the name its visitor gave. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tus_upload').addColumn('drop_link_id', 'text').execute();
  await db.schema.alterTable('tus_upload').addColumn('uploader_name', 'text').execute();
  await db.schema.createIndex('tus_upload_drop_link_idx').on('tus_upload').column('drop_link_id').execute();
}
