import type { Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * The image–text model's embedding of a photo (or of frames sampled from a video), beside the
 * entry's text embedding. It is compared with a query's text embedding of the same model only,
 * and kept with the id of the model that made it, so a change of model re-embeds in the background.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema.alterTable('search_entry').addColumn('image_model_id', 'text').execute();
  await db.schema
    .alterTable('search_entry')
    .addColumn('image_embedding', postgres ? 'bytea' : 'blob')
    .execute();
}
