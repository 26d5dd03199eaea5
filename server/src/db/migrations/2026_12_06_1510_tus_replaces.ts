import type { Kysely } from 'kysely';

/**
 * A resumable upload can replace an existing file's content instead of making a new file:
 * `replaces_file_id` names that file (checked when the upload is created, and again when its last
 * byte arrives). `author_id` is the account that started the upload, which is not the owner when
 * an editor uploads into a shared folder; the content it becomes is recorded as theirs. Both are
 * nullable columns: adding them rewrites no rows on either database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tus_upload').addColumn('replaces_file_id', 'text').execute();
  await db.schema.alterTable('tus_upload').addColumn('author_id', 'text').execute();
}
