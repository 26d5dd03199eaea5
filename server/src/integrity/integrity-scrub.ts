import type { IntegrityRepository } from '../db/repositories/integrity.repository.js';
import type { Logger } from '../logger.js';
import type { Clock } from '../services/clock.js';
import { emptyTally, isProblem, type Finding, type Tally } from './findings.js';
import { PHASES, type Phase } from './integrity-check.js';
import type { IntegrityInspector, StepContext } from './integrity-inspector.js';
import { RateLimiter } from './rate-limiter.js';

export interface ScrubOptions {
  /** How often a batch runs; also how close together two processes' batches may come. */
  intervalMs: number;
  /** Files (and versions) verified per batch (a page of listed blobs counts as one). */
  batchSize: number;
  rateBytesPerSecond: number;
  graceMs: number;
}

export interface ScrubCycle extends Tally {
  startedAt: number;
  finishedAt: number | null;
}

/** What the scrub has done, readable by any process (GET /health/details). */
export interface ScrubState {
  phase: Phase;
  cursor: string | null;
  /** Whole passes over every file and blob finished so far. */
  cycles: number;
  current: ScrubCycle;
  lastCycle: ScrubCycle | null;
  lastRunAt: number | null;
}

const STATE_NAME = 'scrub';
/** Listed blobs weigh little beside read ones: a batch lists this many per file it may verify. */
const BLOBS_PER_FILE = 20;

/**
 * The low-priority background check: a bounded batch per run, continuing where the last one
 * stopped (in the database, so any process takes the next batch), cycling for ever. It reports
 * and logs, and removes what `nimbus check --repair` removes and nothing more: blobs no row
 * refers to past the grace period (what a crash between storing bytes and committing their row
 * leaves behind) and thumbnail rows of deleted files. A user's bytes, damaged or not, are never
 * touched: they are for an operator to restore.
 */
export class IntegrityScrub {
  constructor(
    private readonly inspector: IntegrityInspector,
    private readonly repo: IntegrityRepository,
    private readonly clock: Clock,
    private readonly log: Logger,
    readonly options: ScrubOptions,
  ) {}

  async state(): Promise<ScrubState | null> {
    const row = await this.repo.getState(STATE_NAME);
    return row
      ? { ...(JSON.parse(row.data) as Omit<ScrubState, 'phase' | 'cursor'>), phase: row.phase as Phase, cursor: row.cursor }
      : null;
  }

  async runBatch(): Promise<ScrubState> {
    const now = this.clock.now();
    const state = (await this.state()) ?? fresh(now);
    // Every process schedules the scrub; one batch per interval is the scrub's whole share.
    if (state.lastRunAt !== null && now - state.lastRunAt < this.options.intervalMs / 2) return state;
    const ctx: StepContext = {
      tally: state.current,
      limiter: new RateLimiter(this.options.rateBytesPerSecond),
      repair: true,
      graceMs: this.options.graceMs,
      onFinding: (finding) => this.logFinding(finding),
    };
    let budget = this.options.batchSize;
    while (budget > 0 && state.phase !== 'done') {
      const verifiedBefore = verified(state.current);
      const step =
        state.phase === 'files'
          ? await this.inspector.verifyFiles(state.cursor, budget, ctx)
          : state.phase === 'versions'
            ? await this.inspector.verifyVersions(state.cursor, budget, ctx)
            : state.phase === 'thumbnails'
              ? await this.inspector.checkOrphanMedia(state.cursor, budget, ctx)
              : await this.inspector.findStrays(state.cursor, budget * BLOBS_PER_FILE, ctx);
      budget -= state.phase === 'blobs' ? budget : Math.max(1, verified(state.current) - verifiedBefore);
      state.cursor = step.cursor;
      if (step.done) [state.phase, state.cursor] = [PHASES[PHASES.indexOf(state.phase) + 1] ?? 'done', null];
    }
    if (state.phase === 'done') this.finishCycle(state);
    state.lastRunAt = this.clock.now();
    const { phase, cursor, ...data } = state;
    await this.repo.saveState({ name: STATE_NAME, phase, cursor, data: JSON.stringify(data), updatedAt: state.lastRunAt });
    return state;
  }

  private finishCycle(state: ScrubState): void {
    const now = this.clock.now();
    state.cycles += 1;
    state.lastCycle = { ...state.current, finishedAt: now };
    state.current = { startedAt: now, finishedAt: null, ...emptyTally() };
    [state.phase, state.cursor] = ['files', null];
    const { counts } = state.lastCycle;
    this.log.info({ cycle: state.cycles, counts }, `integrity scrub finished a cycle: ${counts.problems} problem(s)`);
  }

  private logFinding(finding: Finding): void {
    if (isProblem(finding.kind)) this.log.warn({ finding }, `integrity scrub: ${finding.kind} ${finding.key ?? ''}: ${finding.detail}`);
  }
}

/** Contents read so far this cycle: files' and versions' (a cycle saved before versions were checked has no count of them). */
function verified(cycle: ScrubCycle): number {
  return cycle.counts.files + (cycle.counts.versions ?? 0);
}

function fresh(now: number): ScrubState {
  return {
    phase: 'files',
    cursor: null,
    cycles: 0,
    current: { startedAt: now, finishedAt: null, ...emptyTally() },
    lastCycle: null,
    lastRunAt: null,
  };
}
