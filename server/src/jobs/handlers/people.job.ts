import { DETECTOR } from '../../people/face-detector.js';
import type { FaceScanService } from '../../people/face-scan.service.js';
import type { PeopleRepository } from '../../people/people.repository.js';
import type { Clock } from '../../services/clock.js';
import { JOB } from '../job-names.js';
import type { JobQueue } from '../queue.js';
import type { JobHandler } from '../worker.js';

const BATCH = 500;

/** `people.scan`: safe to run twice; a photo scanned before, gone, trashed or of an account with people off is passed over. */
export function handlePeopleScan(scans: FaceScanService): JobHandler<'people.scan'> {
  return async ({ fileId }) => {
    await scans.scan(fileId);
  };
}

/**
 * Photos never scanned by the current detector (stored before people existed, while the account
 * had people off, or whose job was lost): each gets its `people.scan` job, newest first, a batch
 * per run; a full batch schedules the next run. The first run also clears people whose photos
 * were all deleted since.
 */
export function handlePeopleBackfill(repo: PeopleRepository, queue: JobQueue, clock: Clock): JobHandler<'people.backfill'> {
  return async ({ ownerId, round }) => {
    if (!round) await repo.pruneEmpty(ownerId ?? null);
    const photos = await repo.unscanned(DETECTOR, BATCH, ownerId);
    for (const photo of photos) {
      await queue.enqueue(
        JOB.peopleScan,
        { fileId: photo.id },
        { dedupeKey: `${JOB.peopleScan}:${photo.id}`, lane: ownerId ?? JOB.peopleBackfill },
      );
    }
    if (photos.length === BATCH) {
      // Alternating keys: this run still holds its own.
      const next = (round ?? 0) + 1;
      const key = ownerId ? `${JOB.peopleBackfill}:${ownerId}:${next % 2}` : `${JOB.peopleBackfill}:${next % 2}`;
      await queue.enqueue(
        JOB.peopleBackfill,
        { ...(ownerId ? { ownerId } : {}), round: next },
        { dedupeKey: key, runAt: clock.now() + 1000 },
      );
    }
  };
}
