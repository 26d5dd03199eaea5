import type { AccountDeletionRepository } from '../../db/repositories/account-deletion.repository.js';
import { DomainError } from '../../domain/errors.js';
import { JOB } from '../../jobs/job-names.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { TrashService } from '../drive/trash.service.js';
import type { TusUploadService } from '../uploads/tus-upload.service.js';

/** Files or folders deleted per transaction: a large account never holds the tree lock for long. */
const BATCH = 500;

/**
 * Removes a deleted account (the `account.delete` job): its files and folders in batches through
 * the trash's deletion (rows, versions, thumbnails and previews, their stored bytes queued for deletion),
 * its unfinished uploads and their bytes, then every other row of it and the account row.
 * Idempotent: a job run again after a crash takes up where the last one stopped.
 */
export class AccountDeletionService {
  constructor(
    private readonly rows: AccountDeletionRepository,
    private readonly trash: TrashService,
    private readonly tus: TusUploadService,
    private readonly queue: JobQueue,
  ) {}

  async run(accountId: string): Promise<void> {
    for (let ids = await this.rows.fileIds(accountId, BATCH); ids.length > 0; ids = await this.rows.fileIds(accountId, BATCH)) {
      await this.trash.discard(accountId, ids, []);
    }
    for (let ids = await this.rows.folderIds(accountId, BATCH); ids.length > 0; ids = await this.rows.folderIds(accountId, BATCH)) {
      await this.trash.discard(accountId, [], ids);
    }
    for (const id of await this.rows.openUploadIds(accountId)) {
      // Gone meanwhile (finished, expired): nothing left of it to remove.
      await this.tus.terminate(accountId, id).catch((err: unknown) => {
        if (!(err instanceof DomainError)) throw err;
      });
    }
    await this.rows.removeRest(accountId);
  }

  /** Enqueues again the removal of accounts a stopped server or a job given up on left unfinished (housekeeping). */
  async requeuePending(): Promise<void> {
    for (const accountId of await this.rows.pending()) {
      await this.queue.enqueue(JOB.accountDelete, { accountId }, { dedupeKey: `${JOB.accountDelete}:${accountId}` });
    }
  }
}
