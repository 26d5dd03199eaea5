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
  /**
   * Jobs that keep a core busy, in groups (indexing; thumbnails), each with its own number of
   * slots: one group's stuck or slow work never holds up another's, nor the light jobs.
   */
  cpuHeavy: CpuGroup[];
}

export interface CpuGroup {
  names: readonly JobName[];
  slots: number;
}

/**
 * A claim lasts a minute and is renewed every third of that while the job runs: a job as long as
 * it needs keeps its claim, and one whose process died (a crash, a kill) runs again within a
 * minute instead of waiting out a long lease.
 */
const DEFAULTS: WorkerOptions = { concurrency: 2, pollMs: 1000, leaseMs: 60_000, cpuHeavy: [] };

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
  /** Running jobs per CPU group, by index in `options.cpuHeavy`. */
  private readonly heavyRunning: number[];

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
    this.heavyRunning = this.options.cpuHeavy.map(() => 0);
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
    const groups = this.options.cpuHeavy;
    const groupOf = (name: string) => groups.findIndex((g) => (g.names as readonly string[]).includes(name));
    // A slot of every group with room is reserved before claiming (loops interleave at the await);
    // a group with every slot taken is left out, and light jobs (deletes, schedules) always run.
    const reserved = groups.map((g, i) => this.heavyRunning[i]! < g.slots);
    reserved.forEach((r, i) => r && this.heavyRunning[i]!++);
    const release = (keep: number) => reserved.forEach((r, i) => r && i !== keep && this.heavyRunning[i]!--);
    const names = Object.keys(this.handlers).filter((n) => {
      const group = groupOf(n);
      return group === -1 || reserved[group];
    });
    const job = await this.repo.claimNext(names, this.id, now, now + this.options.leaseMs).catch((err: unknown) => {
      release(-1);
      throw err;
    });
    const group = job ? groupOf(job.name) : -1;
    release(group);
    if (!job) return false;
    const handler = this.handlers[job.name as JobName] as JobHandler<JobName>;
    const renewal = setInterval(() => {
      this.repo.renewLease(job.id, this.id, this.clock.now() + this.options.leaseMs).catch((err: unknown) => {
        this.log.warn({ err, job: job.name, jobId: job.id }, 'renewing a job lease failed');
      });
    }, this.options.leaseMs / 3);
    renewal.unref();
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
      clearInterval(renewal);
      if (group !== -1) this.heavyRunning[group]!--;
    }
    return true;
  }
}
