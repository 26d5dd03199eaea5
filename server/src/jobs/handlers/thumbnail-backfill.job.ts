import type { FileMediaRepository } from '../../db/repositories/file-media.repository.js';
import type { Clock } from '../../services/clock.js';
import { JOB } from '../job-names.js';
import type { JobQueue } from '../queue.js';
import type { JobHandler } from '../worker.js';

const BATCH = 1000;

/**
 * Redoes what a lost or given-up thumbnail job left undone: photos and videos with no recorded
 * outcome and no pending job get one, a batch per run; a full batch schedules the next run at once.
 */
export function handleThumbnailBackfill(media: FileMediaRepository, queue: JobQueue, clock: Clock): JobHandler<'file.thumbnail-backfill'> {
  return async ({ round }) => {
    const fileIds = await media.unprocessedMedia(BATCH);
    // One lane for all of it: a backfill of a million files takes turns with every account.
    const lane = JOB.thumbnailBackfill;
    for (const fileId of fileIds) await queue.enqueue(JOB.fileThumbnail, { fileId }, { dedupeKey: `${JOB.fileThumbnail}:${fileId}`, lane });
    if (fileIds.length === BATCH) {
      // Alternating keys: this run still holds its own.
      const next = (round ?? 0) + 1;
      await queue.enqueue(
        JOB.thumbnailBackfill,
        { round: next },
        { dedupeKey: `${JOB.thumbnailBackfill}:${next % 2}`, runAt: clock.now() + 1000 },
      );
    }
  };
}
