import type { Db } from '../database.js';

export interface ThrottlePolicy {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

export class LoginThrottleRepository {
  constructor(private readonly db: Db) {}

  async lockedUntil(emailKey: string, now: number): Promise<number | null> {
    const row = await this.db.selectFrom('loginThrottle').select('lockedUntil').where('emailKey', '=', emailKey).executeTakeFirst();
    return row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null;
  }

  /** Counts a failure inside the window (a stale window starts over) and locks at the limit. */
  async recordFailure(emailKey: string, now: number, policy: ThrottlePolicy): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('loginThrottle').selectAll().where('emailKey', '=', emailKey).executeTakeFirst();
      const fresh = !row || row.windowStartedAt <= now - policy.windowMs || (row.lockedUntil !== null && row.lockedUntil <= now);
      const failures = fresh ? 1 : row.failures + 1;
      const values = {
        failures,
        windowStartedAt: fresh ? now : row.windowStartedAt,
        lockedUntil: failures >= policy.maxFailures ? now + policy.lockMs : null,
      };
      await trx
        .insertInto('loginThrottle')
        .values({ emailKey, ...values })
        .onConflict((oc) => oc.column('emailKey').doUpdateSet(values))
        .execute();
    });
  }

  async clear(emailKey: string): Promise<void> {
    await this.db.deleteFrom('loginThrottle').where('emailKey', '=', emailKey).execute();
  }
}
