import type { Kysely } from 'kysely';

/**
 * Two-factor codes (TOTP): per account its secret, encrypted with the server's key, whether it is
 * confirmed, and the last time step a code was accepted for (a code is never taken twice); ten
 * recovery codes kept as hashes; and the short-lived tickets of a sign-in waiting for its second
 * step, kept as hashes and bound to the browser that got them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('two_factor')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('account.id').onDelete('cascade'))
    .addColumn('secret_cipher', 'text', (c) => c.notNull())
    .addColumn('enabled_at', 'bigint')
    .addColumn('last_used_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('recovery_code')
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('recovery_code_pk', ['account_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('second_factor_ticket')
    .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('browser_key', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('second_factor_ticket_expiry_idx').on('second_factor_ticket').column('expires_at').execute();
}
