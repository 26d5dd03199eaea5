import type { Db } from '../database.js';
import type { AccountTokenPurpose, AccountTokenTable } from '../schema.js';

export class AccountTokenRepository {
  constructor(private readonly db: Db) {}

  async insert(row: AccountTokenTable): Promise<void> {
    await this.db.insertInto('accountToken').values(row).execute();
  }

  /**
   * Marks a live token used and returns its account, in one conditional update so a
   * token can be used exactly once even under concurrent requests.
   */
  async consume(tokenHash: string, purpose: AccountTokenPurpose, now: number): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('accountToken')
        .select('accountId')
        .where('tokenHash', '=', tokenHash)
        .where('purpose', '=', purpose)
        .where('usedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      if (!row) return null;
      const result = await trx
        .updateTable('accountToken')
        .set({ usedAt: now })
        .where('tokenHash', '=', tokenHash)
        .where('usedAt', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1 ? row.accountId : null;
    });
  }

  /** A newer token of the same purpose makes older unused ones void. */
  async voidUnused(accountId: string, purpose: AccountTokenPurpose, now: number): Promise<void> {
    await this.db
      .updateTable('accountToken')
      .set({ usedAt: now })
      .where('accountId', '=', accountId)
      .where('purpose', '=', purpose)
      .where('usedAt', 'is', null)
      .execute();
  }

  /** Housekeeping: tokens that were used or can no longer be. */
  async deleteSpent(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('accountToken')
      .where((eb) => eb.or([eb('usedAt', 'is not', null), eb('expiresAt', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
