import type { Logger } from '../logger.js';
import type { Db, Dialect } from '../db/database.js';
import { JobRepository, type JobRow } from '../db/repositories/job.repository.js';
import { newId } from '../security/ids.js';
import type { Clock } from '../services/clock.js';
import { JOB, type JobName, type JobPayloads } from './job-names.js';

export type JobHandler<N extends JobName> = (payload: JobPayloads[N], job: JobRow) => Promise<void>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

export interface WorkerOptions {
  concurrency: number;
  pollMs: number;
  leaseMs: number;
  /** Jobs that keep a core busy (parsing, OCR, embeddings) and how many of them may run at once. */
  cpuHeavy: { names: readonly JobName[]; slots: number };
}

const DEFAULTS: WorkerOptions = { concurrency: 2, pollMs: 1000, leaseMs: 10 * 60_000, cpuHeavy: { names: [], slots: 1 } };

/** Retry delay after the nth failed attempt: 5 s doubling, at most an hour. */
export function backoffMs(attempt: number): number {
  return Math.min(5000 * 2 ** (attempt - 1), 3_600_000);
}

/**
 * Runs due jobs from the jobs table. Handlers are idempotent; a thrown error retries with
 * back-off until the job's attempts run out. Any number of workers may run against one database.
 */
export class JobWorker {
  private readonly id = newId();
  private readonly repo: JobRepository;
  private readonly options: WorkerOptions;
  private running = false;
  private loops: Promise<void>[] = [];
  private wake: (() => void) | null = null;
  private heavyRunning = 0;

  constructor(
    db: Db,
    dialect: Dialect,
    private readonly handlers: JobHandlers,
    private readonly clock: Clock,
    private readonly log: Logger,
    options: Partial<WorkerOptions> = {},
  ) {
    const names = Object.values(JOB);
    const missing = names.filter((n) => typeof handlers[n] !== 'function');
    const unknown = Object.keys(handlers).filter((n) => !(names as string[]).includes(n));
    if (missing.length || unknown.length) throw new Error(`Job handlers do not match job names (missing: ${missing}, unknown: ${unknown})`);
    this.repo = new JobRepository(db, dialect);
    this.options = { ...DEFAULTS, ...options };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = Array.from({ length: this.options.concurrency }, () => this.loop());
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await Promise.all(this.loops);
  }

  /** Runs due jobs until none is left; tests and shutdown use it to make progress deterministically. */
  async drain(): Promise<number> {
    let ran = 0;
    while (await this.runOne()) ran++;
    return ran;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const ran = await this.runOne().catch((err: unknown) => {
        this.log.error({ err }, 'job loop failed');
        return false;
      });
      if (!ran && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  /** Lets a waiting loop pick up a job enqueued by this process at once. */
  notify(): void {
    this.wake?.();
  }

  private async runOne(): Promise<boolean> {
    const now = this.clock.now();
    const heavy = this.options.cpuHeavy.names as readonly string[];
    // A CPU slot is reserved before claiming (loops interleave at the await); with every slot
    // taken, the loop still runs light jobs (deletes, schedules) meanwhile.
    const reserved = this.heavyRunning < this.options.cpuHeavy.slots;
    if (reserved) this.heavyRunning++;
    const names = Object.keys(this.handlers).filter((n) => reserved || !heavy.includes(n));
    const job = await this.repo.claimNext(names, this.id, now, now + this.options.leaseMs).catch((err: unknown) => {
      if (reserved) this.heavyRunning--;
      throw err;
    });
    const isHeavy = job !== undefined && heavy.includes(job.name);
    if (reserved && !isHeavy) this.heavyRunning--;
    if (!job) return false;
    const handler = this.handlers[job.name as JobName] as JobHandler<JobName>;
    try {
      await handler(JSON.parse(job.payload) as JobPayloads[JobName], job);
      await this.repo.complete(job.id, this.id);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (job.attempts >= job.maxAttempts) {
        this.log.error({ err, job: job.name, jobId: job.id }, 'job failed for good');
        await this.repo.markFailed(job.id, this.id, this.clock.now(), message);
      } else {
        this.log.warn({ err, job: job.name, jobId: job.id, attempt: job.attempts }, 'job failed; will retry');
        await this.repo.retryLater(job.id, this.id, this.clock.now() + backoffMs(job.attempts), message);
      }
    } finally {
      if (isHeavy) this.heavyRunning--;
    }
    return true;
  }
}
