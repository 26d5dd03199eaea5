import type { Db } from '../database.js';
import type { AppPasswordTable } from '../schema.js';

export type AppPasswordRow = AppPasswordTable;

export class AppPasswordRepository {
  constructor(private readonly db: Db) {}

  async insert(row: AppPasswordRow): Promise<void> {
    await this.db.insertInto('appPassword').values(row).execute();
  }

  listOwned(accountId: string): Promise<AppPasswordRow[]> {
    return this.db.selectFrom('appPassword').selectAll().where('accountId', '=', accountId).orderBy('createdAt').orderBy('id').execute();
  }

  async countOwned(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('appPassword')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('accountId', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** False when the account has no such app password. */
  async deleteOwned(accountId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('appPassword').where('id', '=', id).where('accountId', '=', accountId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /**
   * Whether the account, active, has an app password with this secret hash; marks it used, at most once a
   * minute, so a sync client's stream of requests does not turn every read into a write.
   */
  async touch(accountId: string, secretHash: string, now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('appPassword')
      .innerJoin('account', 'account.id', 'appPassword.accountId')
      .select(['appPassword.id', 'appPassword.lastUsedAt'])
      .where('appPassword.accountId', '=', accountId)
      .where('appPassword.secretHash', '=', secretHash)
      // A disabled or deleted account's app passwords stop working (and come back when it is enabled).
      .where('account.disabledAt', 'is', null)
      .where('account.deletedAt', 'is', null)
      .executeTakeFirst();
    if (!row) return false;
    if (row.lastUsedAt === null || row.lastUsedAt < now - 60_000) {
      await this.db.updateTable('appPassword').set({ lastUsedAt: now }).where('id', '=', row.id).execute();
    }
    return true;
  }
}
