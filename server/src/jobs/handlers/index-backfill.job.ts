import type { Clock } from '../../services/clock.js';
import type { JobQueue } from '../queue.js';
import type { JobPayloads } from '../job-names.js';
import type { IndexSourceRepository } from '../../search/db/index-source.repository.js';
import { ANALYSIS_VERSION } from '../../search/indexer.js';

const BATCH = 1000;

/**
 * Finds what went stale or was never indexed (indexed by an older pipeline or another embedding
 * model, or by a job that gave up) and enqueues it, a batch per run; a full batch schedules the
 * next run at once.
 */
export function handleIndexBackfill(sources: IndexSourceRepository, queue: JobQueue, clock: Clock, preferredModelId: () => string) {
  return async ({ round }: JobPayloads['search.backfill']): Promise<void> => {
    const modelId = preferredModelId();
    const files = await sources.staleFiles(ANALYSIS_VERSION, modelId, BATCH);
    const folders = await sources.staleFolders(ANALYSIS_VERSION, modelId, BATCH);
    // One lane for all of it: a backfill of a million files takes turns with every account.
    const lane = 'search.backfill';
    for (const fileId of files) await queue.enqueue('search.index-file', { fileId }, { dedupeKey: `search.index-file:${fileId}`, lane });
    for (const folderId of folders) {
      await queue.enqueue('search.index-folder', { folderId, cascade: false }, { dedupeKey: `search.index-folder:${folderId}`, lane });
    }
    const removed = await sources.removeOrphans(BATCH);
    if (files.length === BATCH || folders.length === BATCH || removed === BATCH) {
      // Alternating keys: this run still holds its own.
      const next = (round ?? 0) + 1;
      await queue.enqueue('search.backfill', { round: next }, { dedupeKey: `search.backfill:${next % 2}`, runAt: clock.now() + 1000 });
    }
  };
}
