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

  /**
   * Counts a failure inside the window (a stale window or a lapsed lock starts over) and locks
   * at the limit. One upsert computes the new count from the stored one, so concurrent failures
   * are all counted; a read-then-write lost updates under PostgreSQL's read committed.
   */
  async recordFailure(emailKey: string, now: number, policy: ThrottlePolicy): Promise<{ failures: number; lockedUntil: number | null }> {
    return this.db
      .insertInto('loginThrottle')
      .values({ emailKey, failures: 1, windowStartedAt: now, lockedUntil: policy.maxFailures <= 1 ? now + policy.lockMs : null })
      .onConflict((oc) =>
        oc.column('emailKey').doUpdateSet((eb) => {
          const startsOver = eb.or([
            eb('loginThrottle.windowStartedAt', '<=', now - policy.windowMs),
            eb('loginThrottle.lockedUntil', '<=', now),
          ]);
          const failures = eb
            .case()
            .when(startsOver)
            .then(1)
            .else(eb('loginThrottle.failures', '+', 1))
            .end();
          return {
            failures,
            windowStartedAt: eb.case().when(startsOver).then(now).else(eb.ref('loginThrottle.windowStartedAt')).end(),
            lockedUntil: eb
              .case()
              .when(failures, '>=', policy.maxFailures)
              .then(eb.cast<number | null>(eb.val(now + policy.lockMs), 'bigint'))
              .else(eb.cast<number | null>(eb.val(null), 'bigint'))
              .end(),
          };
        }),
      )
      .returning(['failures', 'lockedUntil'])
      .executeTakeFirstOrThrow();
  }

  /**
   * Counts an attempt before it is checked (a password verified, a token tried), in one upsert,
   * and answers the count with this attempt and the lock. However many arrive at once, each sees a
   * distinct count, so a burst gets no more tries than a sequence. A lapsed window or lock starts over.
   */
  async reserve(key: string, now: number, policy: ThrottlePolicy): Promise<{ attempts: number; lockedUntil: number | null }> {
    const row = await this.recordFailure(key, now, policy);
    return { attempts: row.failures, lockedUntil: row.lockedUntil };
  }

  /** Gives back a reserved attempt that succeeded; under the limit again, the key unlocks. */
  async release(key: string, policy: ThrottlePolicy): Promise<void> {
    await this.db
      .updateTable('loginThrottle')
      .set((eb) => ({
        failures: eb('failures', '-', 1),
        lockedUntil: eb
          .case()
          .when('failures', '<=', policy.maxFailures)
          .then(eb.cast<number | null>(eb.val(null), 'bigint'))
          .else(eb.ref('lockedUntil'))
          .end(),
      }))
      .where('emailKey', '=', key)
      .where('failures', '>', 0)
      .execute();
    await this.db.deleteFrom('loginThrottle').where('emailKey', '=', key).where('failures', '<=', 0).execute();
  }

  async clear(emailKey: string): Promise<void> {
    await this.db.deleteFrom('loginThrottle').where('emailKey', '=', emailKey).execute();
  }

  /** Housekeeping: counters whose window and lock have both run out. */
  async deleteStale(now: number, windowMs: number): Promise<number> {
    const result = await this.db
      .deleteFrom('loginThrottle')
      .where('windowStartedAt', '<=', now - windowMs)
      .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
