import type { Kysely } from 'kysely';

/**
 * Where each session was started, for Settings → Devices: the browser's user agent, the client's
 * address and how it signed in. Sessions from before are left without them (shown as unknown).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('session').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('session').addColumn('client_address', 'text').execute();
  await db.schema.alterTable('session').addColumn('sign_in_method', 'text').execute();
}
