import type { Db, Dialect } from '../db/database.js';
import { JobRepository } from '../db/repositories/job.repository.js';
import { newId } from '../security/ids.js';
import type { Clock } from '../services/clock.js';
import type { JobName, JobPayloads } from './job-names.js';

export interface EnqueueOptions {
  /** Later than now to delay the job. */
  runAt?: number;
  /** At most one pending job per key. */
  dedupeKey?: string;
  maxAttempts?: number;
  /**
   * The account the job works for. Jobs of one lane are spaced on a virtual clock, so due jobs
   * of many accounts interleave rather than run in arrival order.
   */
  lane?: string;
}

/** Virtual time one job takes on its lane's clock. */
export const LANE_JOB_COST_MS = 1000;

/**
 * Puts jobs in the database. Pass the transaction's handle as `db` to enqueue together with
 * the change that needs the job, so neither can exist without the other.
 */
export class JobQueue {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly clock: Clock,
  ) {}

  async enqueue<N extends JobName>(name: N, payload: JobPayloads[N], options: EnqueueOptions = {}, db: Db = this.db): Promise<boolean> {
    const now = this.clock.now();
    const jobs = new JobRepository(db, this.dialect);
    const runAt = options.runAt ?? now;
    const fairAt = options.lane ? await jobs.nextFairAt(options.lane, runAt, LANE_JOB_COST_MS) : runAt;
    return jobs.insert({
      id: newId(),
      name,
      payload: JSON.stringify(payload),
      dedupeKey: options.dedupeKey ?? null,
      runAt,
      fairAt,
      attempts: 0,
      maxAttempts: options.maxAttempts ?? 8,
      lockedUntil: null,
      lockedBy: null,
      lastError: null,
      failedAt: null,
      createdAt: now,
    });
  }
}
