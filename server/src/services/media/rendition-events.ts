import type { Db } from '../../db/database.js';
import { JOB } from '../../jobs/job-names.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { IndexRequests } from '../../search/index-requests.js';
import { DriveEvents } from '../drive/drive-events.js';

type StoredFile = Parameters<DriveEvents['fileStored']>[1];

/** Enqueues the probe of a stored video's playability (see RenditionService). */
export async function requestVideoProbe(queue: JobQueue, db: Db, file: { id: string; ownerId: string }): Promise<void> {
  await queue.enqueue(JOB.videoProbe, { fileId: file.id }, { dedupeKey: `${JOB.videoProbe}:${file.id}`, lane: file.ownerId }, db);
}

/** The drive's events, and a stored video's probe for a playable rendition when renditions are on. */
export class DriveEventsWithRenditions extends DriveEvents {
  constructor(
    private readonly jobs: JobQueue,
    index: IndexRequests,
    wake: () => void,
    private readonly renditionsOn: boolean,
  ) {
    super(jobs, index, wake);
  }

  override async fileStored(db: Db, file: StoredFile): Promise<void> {
    await super.fileStored(db, file);
    if (this.renditionsOn && file.mediaKind === 'video') await requestVideoProbe(this.jobs, db, file);
  }
}
