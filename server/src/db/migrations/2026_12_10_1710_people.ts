import type { Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * People in photos. `face_scan` records that a photo's faces were looked for (once per content);
 * `face` holds each face found, its box as fractions of the upright picture, its descriptor and a
 * small sealed crop; `person` groups one account's faces. Everything goes with its file or account
 * by cascade, and an account that turns people off loses all three.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  const bytes = postgres ? 'bytea' : 'blob';
  await db.schema
    .alterTable('account')
    .addColumn('people_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('person')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cover_face_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('person_owner_idx').on('person').columns(['owner_id', 'updated_at']).execute();
  await db.schema
    .createTable('face')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull().references('file.id').onDelete('cascade'))
    .addColumn('person_id', 'text', (c) => c.references('person.id').onDelete('set null'))
    // A face removed from a person is never put back with that person by the clustering.
    .addColumn('rejected_person_id', 'text')
    .addColumn('box_x', 'real', (c) => c.notNull())
    .addColumn('box_y', 'real', (c) => c.notNull())
    .addColumn('box_w', 'real', (c) => c.notNull())
    .addColumn('box_h', 'real', (c) => c.notNull())
    .addColumn('score', 'real', (c) => c.notNull())
    .addColumn('descriptor', bytes, (c) => c.notNull())
    .addColumn('crop', bytes, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('face_person_idx').on('face').columns(['owner_id', 'person_id']).execute();
  await db.schema.createIndex('face_file_idx').on('face').columns(['file_id']).execute();
  await db.schema
    .createTable('face_scan')
    .addColumn('file_id', 'text', (c) => c.primaryKey().references('file.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('face_count', 'integer', (c) => c.notNull())
    .addColumn('detector', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('scanned_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('face_scan_owner_idx').on('face_scan').columns(['owner_id']).execute();
}
