import type { LivePhotoRepository } from '../../db/repositories/live-photo.repository.js';
import { MOTION_CONTENT_TYPES, type LivePhotoService } from '../../services/media/live-photo.service.js';
import type { Clock } from '../../services/clock.js';
import { JOB } from '../job-names.js';
import type { JobQueue } from '../queue.js';
import type { JobHandler } from '../worker.js';

const BATCH = 1000;

/** `file.motion`: safe to run twice; a file read before, or deleted since, only gets its pairing looked at again. */
export function handleLivePhoto(livePhotos: LivePhotoService): JobHandler<'file.motion'> {
  return async ({ fileId }) => {
    await livePhotos.analyze(fileId);
  };
}

/**
 * Reads the photos and videos stored before Live Photos were paired (or whose job was lost): each
 * gets its `file.motion` job, a batch per run; a full batch schedules the next run at once.
 */
export function handleLivePhotoBackfill(repo: LivePhotoRepository, queue: JobQueue, clock: Clock): JobHandler<'file.motion-backfill'> {
  return async ({ round }) => {
    const fileIds = await repo.unread(MOTION_CONTENT_TYPES, BATCH);
    // One lane for all of it: a backfill of a whole library takes turns with every account.
    const lane = JOB.fileMotionBackfill;
    for (const fileId of fileIds) await queue.enqueue(JOB.fileMotion, { fileId }, { dedupeKey: `${JOB.fileMotion}:${fileId}`, lane });
    if (fileIds.length === BATCH) {
      // Alternating keys: this run still holds its own.
      const next = (round ?? 0) + 1;
      await queue.enqueue(
        JOB.fileMotionBackfill,
        { round: next },
        { dedupeKey: `${JOB.fileMotionBackfill}:${next % 2}`, runAt: clock.now() + 1000 },
      );
    }
  };
}
