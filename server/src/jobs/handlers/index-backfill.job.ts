import type { Clock } from '../../services/clock.js';
import type { JobQueue } from '../queue.js';
import type { JobPayloads } from '../job-names.js';
import type { IndexSourceRepository } from '../../search/db/index-source.repository.js';
import type { PictureModel } from '../../search/embed/picture-model.js';
import { ANALYSIS_VERSION } from '../../search/indexer.js';

const BATCH = 1000;
/** While the image–text model downloads, the backfill looks again this often to embed the pictures once it is ready. */
const MODEL_WAIT_MS = 60_000;

/**
 * Finds what went stale or was never indexed (indexed by an older pipeline or another embedding
 * model, photos and videos not embedded by the ready image–text model, or by a job that gave up)
 * and enqueues it, a batch per run; a full batch schedules the next run at once.
 */
export function handleIndexBackfill(
  sources: IndexSourceRepository,
  queue: JobQueue,
  clock: Clock,
  preferredModelId: () => string,
  pictures: PictureModel | null = null,
) {
  return async ({ round }: JobPayloads['search.backfill']): Promise<void> => {
    const modelId = preferredModelId();
    const files = await sources.staleFiles(ANALYSIS_VERSION, modelId, BATCH, pictures?.ready()?.id ?? null);
    const folders = await sources.staleFolders(ANALYSIS_VERSION, modelId, BATCH);
    // One lane for all of it: a backfill of a million files takes turns with every account.
    const lane = 'search.backfill';
    for (const fileId of files) await queue.enqueue('search.index-file', { fileId }, { dedupeKey: `search.index-file:${fileId}`, lane });
    for (const folderId of folders) {
      await queue.enqueue('search.index-folder', { folderId, cascade: false }, { dedupeKey: `search.index-folder:${folderId}`, lane });
    }
    const removed = await sources.removeOrphans(BATCH);
    const full = files.length === BATCH || folders.length === BATCH || removed === BATCH;
    if (full || pictures?.pending) {
      // Alternating keys: this run still holds its own.
      const next = (round ?? 0) + 1;
      const runAt = clock.now() + (full ? 1000 : MODEL_WAIT_MS);
      await queue.enqueue('search.backfill', { round: next }, { dedupeKey: `search.backfill:${next % 2}`, runAt });
    }
  };
}
