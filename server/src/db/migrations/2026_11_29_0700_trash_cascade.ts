import { sql, type Kysely } from 'kysely';

/**
 * Trashing or restoring a large folder on SQLite commits its files in short transactions, so other
 * requests run in between (SQLite runs one transaction at a time). The folder's own change writes
 * `trash_cascade` (what to do) and `trash_cascade_folder` (the folders whose files still have to
 * follow) in the same transaction: a server stopped half-way finds them and finishes the work.
 *
 * The restore batches find the files a trashing took by (folder, trashed_via), through an index
 * holding only such files: trashing a folder adds its files there in one place, and a restore reads
 * exactly them. The index of the trash view, which only lists trashed items, leaves active ones out
 * too: before, each trashed or restored file moved from the owner's block of active entries (a
 * million for a large drive) to the trashed ones and back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trash_cascade')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('folder_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    // Trash: the time its items get. Restore: null.
    .addColumn('trashed_at', 'bigint')
    // Restore: JSON list of the `trashed_via` values that come back. Trash: '[]'.
    .addColumn('cascades', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('trash_cascade_owner_idx').on('trash_cascade').column('owner_id').execute();
  await db.schema
    .createTable('trash_cascade_folder')
    .addColumn('cascade_id', 'text', (c) => c.notNull().references('trash_cascade.id').onDelete('cascade'))
    .addColumn('folder_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('trash_cascade_folder_pk', ['cascade_id', 'folder_id'])
    .execute();

  await sql`CREATE INDEX file_cascade_idx ON file (folder_id, trashed_via) WHERE trashed_via IS NOT NULL`.execute(db);
  await db.schema.dropIndex('file_trash_idx').execute();
  await sql`CREATE INDEX file_trash_idx ON file (owner_id, trashed_via, trashed_at) WHERE trashed_at IS NOT NULL`.execute(db);
}
