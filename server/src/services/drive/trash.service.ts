import type { ItemRef } from '@nimbus/common';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FolderRow } from '../../db/repositories/folder.repository.js';
import type { Cascade, CascadeBudget } from '../../db/repositories/trash.repository.js';
import type { DriveRepositories, UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError } from '../../domain/errors.js';
import { JOB } from '../../jobs/job-names.js';
import type { JobQueue } from '../../jobs/queue.js';
import { newId } from '../../security/ids.js';
import type { Clock } from '../clock.js';
import type { DriveEvents } from './drive-events.js';

const DAY_MS = 86_400_000;
const PURGE_BATCH = 200;
/**
 * Where cascades commit in batches (SQLite), every request of every user waits for the batch running
 * when it arrives, so a batch (its statements and its commit) is kept near `ms`: its number of files
 * follows the time the previous batch took, between `min` and `max`. The first batch, in the
 * transaction that changes the folders, takes up to `first` files: a folder of fewer goes in one piece.
 */
const CASCADE_BATCH = { ms: 30, first: 500, min: 50, max: 5000 };
const BATCH_GAP_MS = 2;

interface ResolvedItems {
  files: FileRow[];
  folders: FolderRow[];
}

/**
 * Trash, restore and permanent deletion. Trashing a folder trashes its subtree; restoring it
 * brings the subtree back (to the root when its old parent is gone or trashed). Deleting removes
 * rows at once and hands the stored bytes to a durable job in the same transaction.
 *
 * The folders change at once; their files follow in the same transaction on PostgreSQL, and on
 * SQLite (one transaction at a time for every user) in batches of their own, with other requests
 * served in between. A batched cascade is recorded with the folders' change and finished after a
 * restart. Trash, restore and deletion of one owner run one at a time in this process (SQLite has
 * one), each finishing any unfinished cascade of the owner first, so none ever acts on a subtree
 * whose files are still on their way.
 */
export class TrashService {
  /** The tail of each owner's queue of trash operations. */
  private readonly owners = new Map<string, Promise<void>>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly jobs: JobQueue,
    private readonly events: DriveEvents,
    private readonly clock: Clock,
    private readonly options: { cascadeBatch?: number } = {},
  ) {}

  /** Every item must be the caller's, or nothing happens (404). */
  async resolve(ownerId: string, items: ItemRef[], repos: DriveRepositories = this.uow.repos): Promise<ResolvedItems> {
    const files: FileRow[] = [];
    const folders: FolderRow[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      if (seen.has(`${item.type}:${item.id}`)) continue;
      seen.add(`${item.type}:${item.id}`);
      if (item.type === 'folder') {
        const folder = await repos.folders.findOwned(ownerId, item.id);
        if (!folder) throw new NotFoundError('FOLDER_NOT_FOUND', 'Folder not found');
        folders.push(folder);
      } else {
        const file = await repos.files.findOwned(ownerId, item.id);
        if (!file) throw new NotFoundError('FILE_NOT_FOUND', 'File not found');
        files.push(file);
      }
    }
    return { files, folders };
  }

  /** Answers once every item and everything below is in the trash. */
  async trash(ownerId: string, items: ItemRef[]): Promise<void> {
    await this.exclusive(ownerId, async () => {
      const now = this.clock.now();
      const unfinished = await this.uow.run(async (r) => {
        await r.folders.lockTree(ownerId);
        const { files, folders } = await this.resolve(ownerId, items, r);
        for (const file of files) if (file.trashedAt === null) await r.trash.trashFile(file.id, now);
        const cascades: Cascade[] = [];
        for (const { id } of folders) {
          // Read again: an earlier folder of the same call may have taken this one along.
          const folder = await r.folders.findOwned(ownerId, id);
          if (!folder || folder.trashedAt !== null) continue;
          const subtree = await r.folders.subtreeIds(ownerId, [folder.id]);
          const taken = await r.trash.trashFolder(folder.id, subtree, now);
          const cascade: Cascade = { id: newId(), ownerId, folderId: folder.id, action: 'trash', trashedAt: now, cascades: [] };
          // The files of the folders it took; those of folders trashed before are in the trash already.
          await r.trash.beginCascade(cascade, taken, now);
          cascades.push(cascade);
        }
        return this.advance(r, cascades);
      });
      await this.finish(ownerId, unfinished);
    });
  }

  /** Answers once every item and what its trashing took is back. */
  async restore(ownerId: string, items: ItemRef[]): Promise<void> {
    await this.exclusive(ownerId, async () => {
      const now = this.clock.now();
      const unfinished = await this.uow.run(async (r) => {
        await r.folders.lockTree(ownerId);
        const { files, folders } = await this.resolve(ownerId, items, r);
        const cascades: Cascade[] = [];
        for (const { id } of folders) {
          // Read again: an earlier folder of the same call may have brought this one back.
          const folder = await r.folders.findOwned(ownerId, id);
          if (!folder || folder.trashedAt === null) continue;
          const parentId = await this.restoredParent(r, ownerId, folder.parentId, folder.id);
          const via = [folder.id, ...(folder.trashedVia ? [folder.trashedVia] : [])];
          const subtree = await r.folders.subtreeIds(ownerId, [folder.id]);
          await r.trash.restoreFolder(folder.id, parentId, subtree, via, now);
          await this.events.folderChanged(r.db, folder, folder);
          const cascade: Cascade = { id: newId(), ownerId, folderId: folder.id, action: 'restore', trashedAt: null, cascades: via };
          await r.trash.beginCascade(cascade, subtree, now);
          cascades.push(cascade);
        }
        for (const file of files) {
          const current = await r.files.findOwned(ownerId, file.id);
          if (!current || current.trashedAt === null) continue;
          const folderId = await this.restoredParent(r, ownerId, current.folderId);
          await r.trash.restoreFile(file.id, folderId, now);
          await this.events.fileChanged(r.db, { ...current, folderId }, current.folderId);
        }
        return this.advance(r, cascades);
      });
      this.events.committed();
      await this.finish(ownerId, unfinished);
    });
  }

  async remove(ownerId: string, items: ItemRef[]): Promise<void> {
    await this.exclusive(ownerId, async () => {
      const { files, folders } = await this.resolve(ownerId, items);
      await this.deleteForever(
        ownerId,
        files.map((f) => f.id),
        folders.map((f) => f.id),
      );
    });
  }

  /** Deletes items at once without passing through the trash (a failed upload's leftovers). */
  async discard(ownerId: string, fileIds: string[], folderIds: string[]): Promise<void> {
    if (fileIds.length === 0 && folderIds.length === 0) return;
    await this.exclusive(ownerId, () => this.deleteForever(ownerId, fileIds, folderIds));
  }

  /**
   * Finishes the cascades a stopped server left half-done. The periodic purge job runs it, and it
   * is enqueued when the server starts; each owner's next trash operation also finishes its own first.
   */
  async finishUnfinished(): Promise<number> {
    const owners = new Set((await this.uow.repos.trash.unfinishedCascades()).map((c) => c.ownerId));
    for (const ownerId of owners) await this.exclusive(ownerId, async () => {});
    return owners.size;
  }

  /** Deletes trashed items older than the retention period; returns how many top-level items went. */
  async purgeExpired(retentionDays: number): Promise<number> {
    await this.finishUnfinished();
    if (retentionDays <= 0) return 0;
    const cutoff = this.clock.now() - retentionDays * DAY_MS;
    let purged = 0;
    for (;;) {
      const { fileIds, folderIds } = await this.uow.repos.trash.expired(cutoff, PURGE_BATCH);
      if (fileIds.length === 0 && folderIds.length === 0) return purged;
      const owners = await this.ownersOf(fileIds, folderIds);
      for (const [ownerId, ids] of owners) await this.exclusive(ownerId, () => this.deleteForever(ownerId, ids.files, ids.folders));
      purged += fileIds.length + folderIds.length;
    }
  }

  private async deleteForever(ownerId: string, fileIds: string[], folderIds: string[]): Promise<void> {
    await this.uow.run(async (r) => {
      await r.folders.lockTree(ownerId);
      const subtree = await r.folders.subtreeIds(ownerId, folderIds);
      const removed = await r.trash.deleteForever(fileIds, subtree);
      for (let i = 0; i < removed.storageKeys.length; i += 500) {
        await this.jobs.enqueue(JOB.blobDelete, { keys: removed.storageKeys.slice(i, i + 500) }, { lane: ownerId }, r.db);
      }
    });
  }

  /**
   * Runs `work` after the owner's earlier trash operations, and after finishing any cascade of the
   * owner a stopped server (or a failed batch) left unfinished.
   */
  private async exclusive<T>(ownerId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.owners.get(ownerId) ?? Promise.resolve();
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => done);
    this.owners.set(ownerId, tail);
    await previous;
    try {
      await this.finish(ownerId, await this.uow.repos.trash.unfinishedCascades(ownerId));
      return await work();
    } finally {
      release();
      if (this.owners.get(ownerId) === tail) this.owners.delete(ownerId);
    }
  }

  /**
   * Moves the cascades just begun on in their first transaction: all the way where cascades stay
   * in one transaction, else one batch in all. Answers those left for `finish`.
   */
  private async advance(r: DriveRepositories, cascades: Cascade[]): Promise<Cascade[]> {
    const budget: CascadeBudget = { rows: r.trash.commitsCascadesInBatches ? this.batchRows(CASCADE_BATCH.first) : Infinity };
    const left: Cascade[] = [];
    for (const cascade of cascades) {
      const step = budget.rows > 0 ? await r.trash.cascadeStep(cascade, budget) : { done: false, left: 0 };
      budget.rows = step.left;
      if (!step.done) left.push(cascade);
    }
    return left;
  }

  /** Finishes cascades a batch per transaction, letting other requests run between batches. */
  private async finish(ownerId: string, cascades: Cascade[]): Promise<void> {
    let rows = this.batchRows(CASCADE_BATCH.first);
    for (const cascade of cascades) {
      for (let done = false; !done;) {
        // Requests waiting for the database, and those just arrived, go before the next batch. A
        // timer, not setImmediate: the requests read in the next poll phase check their session
        // at setImmediate, and a batch queued there before them would make them wait for it too.
        // Its 2 ms also let in the next request of a client that asks again as soon as it is
        // answered (a list, then its next page); without them, such a client waits for every batch.
        await new Promise<void>((resolve) => setTimeout(resolve, BATCH_GAP_MS));
        let started = 0;
        done = await this.uow.run(async (r) => {
          started = performance.now();
          await r.folders.lockTree(ownerId);
          return (await r.trash.cascadeStep(cascade, { rows, until: started + CASCADE_BATCH.ms })).done;
        });
        // Half again or half as many as the time taken suggests (commits cost more when they checkpoint).
        const scale = Math.min(1.5, Math.max(0.5, CASCADE_BATCH.ms / Math.max(1, performance.now() - started)));
        rows = this.batchRows(Math.round(rows * scale));
      }
    }
  }

  private batchRows(rows: number): number {
    return Math.min(this.options.cascadeBatch ?? CASCADE_BATCH.max, Math.max(CASCADE_BATCH.min, rows));
  }

  /** The folder a restored item goes back to: its old parent if still active, else the root. */
  private async restoredParent(r: DriveRepositories, ownerId: string, parentId: string | null, self?: string): Promise<string | null> {
    if (parentId === null || parentId === self) return null;
    const parent = await r.folders.findOwned(ownerId, parentId);
    return parent && parent.trashedAt === null ? parent.id : null;
  }

  private async ownersOf(fileIds: string[], folderIds: string[]): Promise<Map<string, { files: string[]; folders: string[] }>> {
    const owners = new Map<string, { files: string[]; folders: string[] }>();
    const entry = (owner: string) => owners.get(owner) ?? owners.set(owner, { files: [], folders: [] }).get(owner)!;
    for (const id of fileIds) {
      const file = await this.uow.repos.files.findById(id);
      if (file) entry(file.ownerId).files.push(id);
    }
    for (const id of folderIds) {
      const folder = await this.uow.repos.folders.findById(id);
      if (folder) entry(folder.ownerId).folders.push(id);
    }
    return owners;
  }
}
