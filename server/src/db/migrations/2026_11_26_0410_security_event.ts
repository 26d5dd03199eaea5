import type { Kysely } from 'kysely';

/**
 * The security log of each account (sign-ins, password and app-password changes, shares): what the
 * owner sees under Settings → Recent activity. Bounded by housekeeping, so no index beyond the one
 * that serves the newest-first page and the per-account trim.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('security_event')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('client_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('details', 'text')
    .execute();
  await db.schema.createIndex('security_event_account_idx').on('security_event').columns(['account_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('security_event_created_idx').on('security_event').column('created_at').execute();
}
