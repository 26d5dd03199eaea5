import type { AdminOverviewDto } from '@nimbus/common';
import { statfs } from 'node:fs/promises';
import type { AdminOverviewRepository } from '../../db/repositories/admin-overview.repository.js';
import type { JobStatsRepository } from '../../db/repositories/job-stats.repository.js';
import type { IntegrityScrub } from '../../integrity/integrity-scrub.js';
import type { SmartModelSource } from '../../model-store/model-status.js';
import type { Clock } from '../clock.js';

export interface AdminOverviewDeps {
  counts: AdminOverviewRepository;
  jobs: JobStatsRepository;
  scrub: IntegrityScrub | null;
  /** The local file store's directory; null for an S3 bucket, whose free space cannot be read. */
  storageDir: string | null;
  version: string;
  /** Absent: the model is off. */
  model?: SmartModelSource;
  clock: Clock;
}

/** The admin area's first page: accounts, totals, disk, jobs and scrub at a glance. */
export class AdminOverviewService {
  constructor(private readonly deps: AdminOverviewDeps) {}

  async get(): Promise<AdminOverviewDto> {
    const now = this.deps.clock.now();
    const [counts, jobs, scrub, disk] = await Promise.all([
      this.deps.counts.counts(now),
      this.deps.jobs.countByNameAndState(now),
      this.deps.scrub?.state() ?? null,
      this.disk(),
    ]);
    const jobsIn = (...states: string[]) => jobs.filter((j) => states.includes(j.state)).reduce((sum, j) => sum + j.count, 0);
    return {
      accounts: counts.accounts,
      files: counts.files,
      folders: counts.folders,
      bytes: counts.bytes,
      disk,
      jobs: { queued: jobsIn('queued', 'delayed'), running: jobsIn('running'), failed: jobsIn('failed') },
      scrub: this.deps.scrub ? { phase: scrub?.phase ?? 'idle', updatedAt: new Date(scrub?.lastRunAt ?? now).toISOString() } : null,
      model: this.model(),
      version: this.deps.version,
    };
  }

  private model(): AdminOverviewDto['model'] {
    const status = this.deps.model?.status();
    if (!status) return { name: null, state: 'off', bytesDone: 0, bytesTotal: 0, error: null };
    return { name: status.model, state: status.state, bytesDone: status.bytesDone, bytesTotal: status.bytesTotal, error: status.error };
  }

  private async disk(): Promise<AdminOverviewDto['disk']> {
    if (this.deps.storageDir === null) return null;
    try {
      const stats = await statfs(this.deps.storageDir);
      return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
    } catch {
      return null;
    }
  }
}
