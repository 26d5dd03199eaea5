import type { Db } from '../database.js';
import type { SecurityEventTable } from '../schema.js';

export type SecurityEventRow = SecurityEventTable;

/** Where a page of an account's events continues: strictly older than this event. */
export interface EventPosition {
  createdAt: number;
  id: string;
}

export class SecurityEventRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SecurityEventRow): Promise<void> {
    await this.db.insertInto('securityEvent').values(row).execute();
  }

  /** Newest first; ties on time broken by id, so paging never skips nor repeats an event. */
  listOwned(accountId: string, limit: number, after?: EventPosition): Promise<SecurityEventRow[]> {
    let query = this.db.selectFrom('securityEvent').selectAll().where('accountId', '=', accountId);
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('createdAt', '<', after.createdAt), eb.and([eb('createdAt', '=', after.createdAt), eb('id', '<', after.id)])]),
      );
    }
    return query.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  async deleteOlderThan(cutoff: number): Promise<number> {
    const result = await this.db.deleteFrom('securityEvent').where('createdAt', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Accounts holding more than `keep` events. */
  async accountsOver(keep: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('securityEvent')
      .select('accountId')
      .groupBy('accountId')
      .having((eb) => eb.fn.countAll(), '>', keep)
      .execute();
    return rows.map((r) => r.accountId);
  }

  /** Deletes all but the account's `keep` newest events. */
  async trimAccount(accountId: string, keep: number): Promise<number> {
    const last = await this.db
      .selectFrom('securityEvent')
      .select(['createdAt', 'id'])
      .where('accountId', '=', accountId)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .offset(keep - 1)
      .limit(1)
      .executeTakeFirst();
    if (!last) return 0;
    const result = await this.db
      .deleteFrom('securityEvent')
      .where('accountId', '=', accountId)
      .where((eb) => eb.or([eb('createdAt', '<', last.createdAt), eb.and([eb('createdAt', '=', last.createdAt), eb('id', '<', last.id)])]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
