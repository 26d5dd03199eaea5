import type { Kysely } from 'kysely';

/** Per-device passwords for WebDAV and other clients; only a hash of each secret is kept. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('app_password')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('app_password_account_idx').on('app_password').column('account_id').execute();
}
