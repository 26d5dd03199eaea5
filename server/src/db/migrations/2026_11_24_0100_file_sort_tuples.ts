import type { Kysely } from 'kysely';

/**
 * Lists order by a full tuple, (date, name, id) or (name, date, id), so a cursor made of the last
 * file's date and name alone (the API's `startAtDate` and `startAtName`) resumes exactly where the
 * previous page ended.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('file_by_date_idx').execute();
  await db.schema.dropIndex('file_by_name_idx').execute();
  await db.schema.dropIndex('file_media_idx').execute();
  await db.schema
    .createIndex('file_by_date_idx')
    .on('file')
    .columns(['owner_id', 'folder_id', 'trashed_at', 'uploaded_at', 'name_key', 'id'])
    .execute();
  await db.schema
    .createIndex('file_by_name_idx')
    .on('file')
    .columns(['owner_id', 'folder_id', 'trashed_at', 'name_key', 'uploaded_at', 'id'])
    .execute();
  await db.schema
    .createIndex('file_media_idx')
    .on('file')
    .columns(['owner_id', 'media_kind', 'trashed_at', 'uploaded_at', 'name_key', 'id'])
    .execute();
  await db.schema
    .createIndex('file_media_by_name_idx')
    .on('file')
    .columns(['owner_id', 'media_kind', 'trashed_at', 'name_key', 'uploaded_at', 'id'])
    .execute();
}
