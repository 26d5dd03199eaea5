import type { Kysely } from 'kysely';

/**
 * Passkeys (WebAuthn credentials) and the challenges of their ceremonies. A challenge is kept
 * server-side, as a hash, bound to what it was made for (purpose, account, browser) and spent by
 * its first answer, so the signed challenge of one ceremony is worth nothing in another.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkey')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('device_type', 'text', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('passkey_account_idx').on('passkey').column('account_id').execute();

  await db.schema
    .createTable('webauthn_challenge')
    .addColumn('challenge_hash', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.references('account.id').onDelete('cascade'))
    .addColumn('browser_key', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenge_expiry_idx').on('webauthn_challenge').column('expires_at').execute();
}
