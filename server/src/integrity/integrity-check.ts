import type { IntegrityRepository } from '../db/repositories/integrity.repository.js';
import type { Clock } from '../services/clock.js';
import { emptyTally, type Tally } from './findings.js';
import type { IntegrityInspector, StepContext, StepResult } from './integrity-inspector.js';
import { RateLimiter } from './rate-limiter.js';

/** The walk's phases, in order: files with their thumbnails, versions, thumbnail rows of gone files, stored blobs. */
export const PHASES = ['files', 'versions', 'thumbnails', 'blobs', 'done'] as const;
export type Phase = (typeof PHASES)[number];

export interface CheckOptions {
  repair: boolean;
  /** Continue the last unfinished check where it stopped, with its findings so far. */
  resume: boolean;
  /** Stored bytes read per second, null for no limit. */
  rateBytesPerSecond: number | null;
  graceMs: number;
  /** Stops the check after the blob in progress; progress is saved for `resume`. */
  signal?: AbortSignal;
  onProgress?: (progress: CheckProgress) => void;
}

export interface CheckProgress extends Tally {
  phase: Phase;
  cursor: string | null;
}

export interface CheckReport extends Tally {
  /** `interrupted` when the signal stopped it; `--resume` continues. */
  outcome: 'complete' | 'interrupted';
  /** Where a resumed check picked up, or null for a fresh one. */
  resumedFrom: { phase: Phase; cursor: string | null } | null;
  /** False when the store cannot list its keys, so blobs without rows were not looked for. */
  listedBlobs: boolean;
  repair: boolean;
  graceMs: number;
  startedAt: number;
  finishedAt: number;
}

/** What the check persists between runs (integrity_state.data). */
interface SavedCheck extends Tally {
  startedAt: number;
}

const STATE_NAME = 'check';
/** Files per step: progress is saved after each, so an interruption costs at most this many re-reads. */
const FILES_PER_STEP = 20;
const ROWS_PER_STEP = 500;
const BLOBS_PER_STEP = 2000;

/** `nimbus check`: every row against its blob and every blob against the rows, resumable. */
export class IntegrityCheckService {
  constructor(
    private readonly inspector: IntegrityInspector,
    private readonly repo: IntegrityRepository,
    private readonly clock: Clock,
  ) {}

  async run(options: CheckOptions): Promise<CheckReport> {
    const saved = options.resume ? await this.unfinished() : null;
    let phase: Phase = saved?.phase ?? 'files';
    let cursor = saved?.cursor ?? null;
    const data: SavedCheck = saved?.data ?? { startedAt: this.clock.now(), ...emptyTally() };
    const ctx: StepContext = {
      tally: data,
      limiter: new RateLimiter(options.rateBytesPerSecond),
      repair: options.repair,
      graceMs: options.graceMs,
      signal: options.signal,
    };
    await this.save(phase, cursor, data);
    while (phase !== 'done' && !options.signal?.aborted) {
      const step = await this.step(phase, cursor, ctx);
      cursor = step.cursor;
      if (step.done) [phase, cursor] = [PHASES[PHASES.indexOf(phase) + 1] ?? 'done', null];
      await this.save(phase, cursor, data);
      options.onProgress?.({ phase, cursor, ...data });
    }
    return {
      ...data,
      outcome: phase === 'done' ? 'complete' : 'interrupted',
      resumedFrom: saved ? { phase: saved.phase, cursor: saved.cursor } : null,
      listedBlobs: this.inspector.canList,
      repair: options.repair,
      graceMs: options.graceMs,
      startedAt: data.startedAt,
      finishedAt: this.clock.now(),
    };
  }

  private step(phase: Exclude<Phase, 'done'>, cursor: string | null, ctx: StepContext): Promise<StepResult> {
    switch (phase) {
      case 'files':
        return this.inspector.verifyFiles(cursor, FILES_PER_STEP, ctx);
      case 'versions':
        return this.inspector.verifyVersions(cursor, FILES_PER_STEP, ctx);
      case 'thumbnails':
        return this.inspector.checkOrphanMedia(cursor, ROWS_PER_STEP, ctx);
      case 'blobs':
        return this.inspector.findStrays(cursor, BLOBS_PER_STEP, ctx);
    }
  }

  /** The last check's saved progress, when it did not finish. */
  private async unfinished(): Promise<{ phase: Phase; cursor: string | null; data: SavedCheck } | null> {
    const row = await this.repo.getState(STATE_NAME);
    if (!row || row.phase === 'done' || !PHASES.includes(row.phase as Phase)) return null;
    return { phase: row.phase as Phase, cursor: row.cursor, data: JSON.parse(row.data) as SavedCheck };
  }

  private save(phase: Phase, cursor: string | null, data: SavedCheck): Promise<void> {
    return this.repo.saveState({ name: STATE_NAME, phase, cursor, data: JSON.stringify(data), updatedAt: this.clock.now() });
  }
}
