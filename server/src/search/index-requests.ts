import type { Db } from '../db/database.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Clock } from '../services/clock.js';

/** Lets a burst settle (a folder upload, a rename right after an upload) into one job per item. */
export const FILE_INDEX_DELAY_MS = 2_000;
export const FOLDER_INDEX_DELAY_MS = 5_000;

/**
 * Turns drive changes into durable index jobs. Callers pass the transaction that commits the
 * change as `db`, so the change and its job exist together or not at all.
 */
export class IndexRequests {
  constructor(
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly enabled: boolean,
  ) {}

  /** `lane`: the owner, for the fair order of jobs (see JobQueue). */
  async fileChanged(fileId: string, db?: Db, lane?: string): Promise<void> {
    if (!this.enabled) return;
    await this.queue.enqueue(
      'search.index-file',
      { fileId },
      { dedupeKey: `search.index-file:${fileId}`, runAt: this.clock.now() + FILE_INDEX_DELAY_MS, lane },
      db,
    );
  }

  /** `cascade`: the folder's name changed, and its files mention it. */
  async folderChanged(folderId: string | null, cascade = false, db?: Db, lane?: string): Promise<void> {
    if (folderId === null || !this.enabled) return;
    await this.queue.enqueue(
      'search.index-folder',
      { folderId, cascade },
      {
        dedupeKey: `search.index-folder:${folderId}${cascade ? ':cascade' : ''}`,
        runAt: this.clock.now() + FOLDER_INDEX_DELAY_MS,
        lane,
      },
      db,
    );
  }
}
