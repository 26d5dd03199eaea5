import type { Db, Dialect } from '../database.js';
import { preparedQuery } from '../prepared-query.js';
import type { JobTable } from '../schema.js';

export type JobRow = JobTable;

export class JobRepository {
  /** The compiled claim statement for each set of job names a worker asks for (a handful). */
  private readonly claims = new Map<string, (args: [string, number, number]) => Promise<JobRow[]>>();

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /**
   * The next place on a lane's virtual clock: `cost` after the lane's last job, or `notBefore`
   * when the lane has been idle. One upsert, so concurrent enqueues get distinct places.
   */
  async nextFairAt(lane: string, notBefore: number, cost: number): Promise<number> {
    const row = await this.db
      .insertInto('jobLane')
      .values({ lane, fairAt: notBefore })
      .onConflict((oc) =>
        oc.column('lane').doUpdateSet((eb) => ({
          fairAt: eb
            .case()
            .when(eb('jobLane.fairAt', '+', cost), '<', notBefore)
            .then(eb.val(notBefore))
            .else(eb('jobLane.fairAt', '+', cost))
            .end(),
        })),
      )
      .returning('fairAt')
      .executeTakeFirstOrThrow();
    return Number(row.fairAt);
  }

  /** False when a pending job with the same dedupe key already exists. */
  async insert(row: JobRow): Promise<boolean> {
    const result = await this.db
      .insertInto('job')
      .values(row)
      .onConflict((oc) => oc.column('dedupeKey').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /**
   * Takes the next due job for this worker, leasing it until `leaseUntil`. One statement,
   * and SKIP LOCKED on PostgreSQL, so several processes never take the same job. The statement
   * is compiled once per set of job names: a worker claims after every change that may have
   * queued work, and building the query cost more than running it.
   */
  async claimNext(names: readonly string[], workerId: string, now: number, leaseUntil: number): Promise<JobRow | undefined> {
    const [job] = await this.claimOf(names)([workerId, leaseUntil, now]);
    return job;
  }

  private claimOf(names: readonly string[]): (args: [string, number, number]) => Promise<JobRow[]> {
    const key = names.join('\n');
    let claim = this.claims.get(key);
    if (!claim) {
      claim = preparedQuery(this.db, 3, ([workerId, leaseUntil, now]: (string | number)[]) =>
        this.db
          .updateTable('job')
          .set((eb) => ({ lockedBy: workerId as string, lockedUntil: leaseUntil as number, attempts: eb('attempts', '+', 1) }))
          .where('id', '=', (eb) => {
            let next = eb
              .selectFrom('job')
              .select('id')
              .where('failedAt', 'is', null)
              .where('runAt', '<=', now as number)
              .where('name', 'in', names)
              .where((w) => w.or([w('lockedUntil', 'is', null), w('lockedUntil', '<', now as number)]))
              .orderBy('fairAt')
              .limit(1);
            if (this.dialect === 'postgres') next = next.forUpdate().skipLocked();
            return next;
          })
          .returningAll(),
      ) as (args: [string, number, number]) => Promise<JobRow[]>;
      this.claims.set(key, claim);
    }
    return claim;
  }

  /** Keeps a running job's claim while its worker lives; false once another worker took it over. */
  async renewLease(id: string, workerId: string, leaseUntil: number): Promise<boolean> {
    const result = await this.db
      .updateTable('job')
      .set({ lockedUntil: leaseUntil })
      .where('id', '=', id)
      .where('lockedBy', '=', workerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async complete(id: string, workerId: string): Promise<void> {
    await this.db.deleteFrom('job').where('id', '=', id).where('lockedBy', '=', workerId).execute();
  }

  async retryLater(id: string, workerId: string, runAt: number, error: string): Promise<void> {
    await this.db
      .updateTable('job')
      .set({ runAt, lockedBy: null, lockedUntil: null, lastError: error })
      .where('id', '=', id)
      .where('lockedBy', '=', workerId)
      .execute();
  }

  /** Out of attempts: kept for inspection, never run again; its dedupe key is released. */
  async markFailed(id: string, workerId: string, now: number, error: string): Promise<void> {
    await this.db
      .updateTable('job')
      .set({ failedAt: now, lockedBy: null, lockedUntil: null, lastError: error, dedupeKey: null })
      .where('id', '=', id)
      .where('lockedBy', '=', workerId)
      .execute();
  }

  countPending(): Promise<number> {
    return this.db
      .selectFrom('job')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('failedAt', 'is', null)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }
}
