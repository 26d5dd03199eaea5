import type { Db } from '../database.js';

/** The browsers and address groups (by hash) each account signed in from, and when last. */
export class KnownDeviceRepository {
  constructor(private readonly db: Db) {}

  /** Which of `deviceKeys` signed in to the account at `since` or later. */
  async known(accountId: string, deviceKeys: string[], since: number): Promise<Set<string>> {
    if (deviceKeys.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('knownDevice')
      .select('deviceKey')
      .where('accountId', '=', accountId)
      .where('deviceKey', 'in', deviceKeys)
      .where('lastSuccessAt', '>=', since)
      .execute();
    return new Set(rows.map((r) => r.deviceKey));
  }

  /** Whether the account signed in from anywhere at `since` or later. */
  async hasAny(accountId: string, since: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('knownDevice')
      .select('deviceKey')
      .where('accountId', '=', accountId)
      .where('lastSuccessAt', '>=', since)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Records a sign-in from each of `deviceKeys`, then keeps only the account's `keep` most recent
   * devices, all of them since `since`: the table stays a handful of rows per account.
   */
  async remember(accountId: string, deviceKeys: string[], now: number, options: { keep: number; since: number }): Promise<void> {
    if (deviceKeys.length === 0) return;
    await this.db
      .insertInto('knownDevice')
      .values(deviceKeys.map((deviceKey) => ({ accountId, deviceKey, lastSuccessAt: now })))
      .onConflict((oc) => oc.columns(['accountId', 'deviceKey']).doUpdateSet((eb) => ({ lastSuccessAt: eb.ref('excluded.lastSuccessAt') })))
      .execute();
    await this.db
      .deleteFrom('knownDevice')
      .where('accountId', '=', accountId)
      .where((eb) =>
        eb.or([
          eb('lastSuccessAt', '<', options.since),
          eb(
            'deviceKey',
            'not in',
            eb
              .selectFrom('knownDevice as newest')
              .select('newest.deviceKey')
              .where('newest.accountId', '=', accountId)
              .orderBy('newest.lastSuccessAt', 'desc')
              .orderBy('newest.deviceKey')
              .limit(options.keep),
          ),
        ]),
      )
      .execute();
  }
}
