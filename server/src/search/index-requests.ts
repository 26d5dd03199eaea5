import type { JobQueue } from '../jobs/queue.js';
import type { Clock } from '../services/clock.js';

/** Lets a burst settle (a folder upload, a rename right after an upload) into one job per item. */
export const FILE_INDEX_DELAY_MS = 2_000;
export const FOLDER_INDEX_DELAY_MS = 5_000;

export interface IndexRequestLogger {
  error(obj: unknown, msg?: string): void;
}

/**
 * Turns drive changes into durable index jobs. Called from service listeners after the change is
 * committed; enqueueing never fails the user's request (the backfill catches anything missed).
 */
export class IndexRequests {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly log: IndexRequestLogger,
    private readonly enabled: boolean,
  ) {}

  fileChanged(fileId: string): void {
    if (!this.enabled) return;
    this.track(
      this.queue.enqueue(
        'search.index-file',
        { fileId },
        { dedupeKey: `search.index-file:${fileId}`, runAt: this.clock.now() + FILE_INDEX_DELAY_MS },
      ),
    );
  }

  /** `cascade`: the folder's name changed, and its files mention it. */
  folderChanged(folderId: string | null, cascade = false): void {
    if (folderId === null || !this.enabled) return;
    this.track(
      this.queue.enqueue(
        'search.index-folder',
        { folderId, cascade },
        { dedupeKey: `search.index-folder:${folderId}${cascade ? ':cascade' : ''}`, runAt: this.clock.now() + FOLDER_INDEX_DELAY_MS },
      ),
    );
  }

  /** Resolves once every enqueue started so far has finished (tests drain jobs after it). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private track(work: Promise<unknown>): void {
    const tracked = work
      .catch((err: unknown) => this.log.error({ err }, 'could not enqueue search indexing'))
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }
}
