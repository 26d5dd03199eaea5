import type { IntegrityRepository } from '../../db/repositories/integrity.repository.js';
import type { IntegrityScrub, ScrubState } from '../../integrity/integrity-scrub.js';
import type { ModelStatus, SmartModelSource } from '../../model-store/model-status.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Clock } from '../clock.js';

export interface Reachability {
  reachable: boolean;
  latencyMs: number;
  /** The error's name or code when unreachable (never its message, which may hold addresses). */
  error?: string;
}

export interface HealthDetails {
  /** `unavailable` when the database or the store cannot be reached; `problems` when the scrub found some. */
  status: 'ok' | 'problems' | 'unavailable';
  checkedAt: number;
  database: Reachability;
  storage: Reachability;
  jobs: { pending: number; running: number; failed: number } | null;
  scrub: { enabled: boolean; intervalMs: number | null; batchSize: number | null; state: ScrubState | null };
  /** The image–text model of AI search; a failed download is no problem of the server: search falls back. */
  model: ModelStatus;
}

/** A dependency that takes longer than this to answer counts as unreachable. */
const PROBE_TIMEOUT_MS = 5000;
/** No blob is ever stored under it: a stat answers "absent" quickly when the store is up. */
const PROBE_KEY = 'nimbus-health-probe';

/** What an operator's monitoring wants beyond "the process answers": reachability, queue depth, scrub findings. */
export class HealthDetailsService {
  constructor(
    private readonly repo: IntegrityRepository,
    private readonly store: BlobStore,
    private readonly scrub: IntegrityScrub | null,
    private readonly clock: Clock,
    private readonly model: SmartModelSource | null = null,
  ) {}

  async details(): Promise<HealthDetails> {
    const [database, storage] = await Promise.all([probe(() => this.repo.ping()), probe(() => this.store.stat(PROBE_KEY))]);
    const jobs = database.reachable ? await this.repo.jobCounts(this.clock.now()).catch(() => null) : null;
    const state = database.reachable ? await this.scrub?.state().catch(() => null) : null;
    const problems = (state?.current.counts.problems ?? 0) + (state?.lastCycle?.counts.problems ?? 0);
    return {
      status: !database.reachable || !storage.reachable ? 'unavailable' : problems > 0 ? 'problems' : 'ok',
      checkedAt: this.clock.now(),
      database,
      storage,
      jobs,
      scrub: {
        enabled: this.scrub !== null,
        intervalMs: this.scrub?.options.intervalMs ?? null,
        batchSize: this.scrub?.options.batchSize ?? null,
        state: state ?? null,
      },
      model: this.model?.status() ?? { model: null, state: 'off', bytesDone: 0, bytesTotal: 0, error: null, dir: null },
    };
  }
}

async function probe(call: () => Promise<unknown>): Promise<Reachability> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([call(), timeout]);
    return { reachable: true, latencyMs: Math.round(performance.now() - started) };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const error = typeof code === 'string' ? code : err instanceof Error ? err.name : 'Error';
    return { reachable: false, latencyMs: Math.round(performance.now() - started), error };
  } finally {
    clearTimeout(timer);
  }
}
