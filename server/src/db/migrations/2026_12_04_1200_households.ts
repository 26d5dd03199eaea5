import { sql, type Kysely } from 'kysely';

/**
 * A server shared by a household or a team: roles, disabled accounts and per-account quotas on
 * `account`; server settings kept in the database; invitations; and shares of a file or folder
 * with another account. The earliest account of a server that already has accounts becomes its
 * administrator, as the first account of a fresh server does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('account')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .execute();
  await db.schema.alterTable('account').addColumn('disabled_at', 'bigint').execute();
  await db.schema.alterTable('account').addColumn('deleted_at', 'bigint').execute();
  await db.schema.alterTable('account').addColumn('quota_bytes', 'bigint').execute();
  await db.schema.alterTable('account').addColumn('last_active_at', 'bigint').execute();
  await sql`UPDATE account SET role = 'admin' WHERE id = (SELECT id FROM account ORDER BY created_at, id LIMIT 1)`.execute(db);
  await db.schema.createIndex('account_created_idx').on('account').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('server_setting')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invitation')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.references('account.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('invitation_email_idx').on('invitation').columns(['email_key', 'created_at']).execute();

  await db.schema
    .createTable('item_share')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('item_type', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('item_share_item_idx').on('item_share').columns(['item_id', 'recipient_id']).unique().execute();
  await db.schema.createIndex('item_share_recipient_idx').on('item_share').columns(['recipient_id', 'created_at']).execute();
  await db.schema.createIndex('item_share_owner_idx').on('item_share').columns(['owner_id']).execute();
}
