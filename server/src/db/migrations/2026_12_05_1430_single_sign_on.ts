import type { Kysely } from 'kysely';

/**
 * Single sign-on (OpenID Connect). `account.has_password` is 0 for an account made by its identity
 * provider: it has no password to sign in with until it sets one through a reset e-mail.
 * `oidc_identity` links a provider's subject to an account. `oidc_login` holds a sign-in between
 * the redirect to the provider and its return: a row (rather than a sealed cookie) because it
 * must be usable once only, which only the server can enforce; its state is kept as a hash.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('account')
    .addColumn('has_password', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('oidc_identity')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('oidc_identity_pk', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('oidc_identity_account_idx').on('oidc_identity').column('account_id').execute();

  await db.schema
    .createTable('oidc_login')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('browser_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oidc_login_expiry_idx').on('oidc_login').column('expires_at').execute();
}
