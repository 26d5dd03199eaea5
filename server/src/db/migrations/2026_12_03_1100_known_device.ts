import type { Kysely } from 'kysely';

/**
 * The devices and networks each account signed in from: a hash of the browser id or of the
 * client's address group, with the time of the last success. A sign-in from one of them is not
 * refused for failures that came from elsewhere. A handful per account, trimmed at each sign-in,
 * so the primary key is the only index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('known_device')
    .addColumn('account_id', 'text', (c) => c.notNull().references('account.id').onDelete('cascade'))
    .addColumn('device_key', 'text', (c) => c.notNull())
    .addColumn('last_success_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('known_device_pk', ['account_id', 'device_key'])
    .execute();
}
