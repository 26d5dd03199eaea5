import type { ItemRef } from '@nimbus/common';
import type { FileRow } from '../db/repositories/file.repository.js';
import type { FolderRow } from '../db/repositories/folder.repository.js';
import type { DriveRepositories, UnitOfWork } from '../db/unit-of-work.js';
import { NotFoundError } from '../domain/errors.js';
import { JOB } from '../jobs/job-names.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Clock } from './clock.js';
import type { DriveEvents } from './drive-events.js';

const DAY_MS = 86_400_000;
const PURGE_BATCH = 200;

interface ResolvedItems {
  files: FileRow[];
  folders: FolderRow[];
}

/**
 * Trash, restore and permanent deletion. Trashing a folder trashes its subtree; restoring it
 * brings the subtree back (to the root when its old parent is gone or trashed). Deleting removes
 * rows at once and hands the stored bytes to a durable job in the same transaction.
 */
export class TrashService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly jobs: JobQueue,
    private readonly events: DriveEvents,
    private readonly clock: Clock,
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

  async trash(ownerId: string, items: ItemRef[]): Promise<void> {
    const now = this.clock.now();
    await this.uow.run(async (r) => {
      await r.folders.lockTree(ownerId);
      const { files, folders } = await this.resolve(ownerId, items, r);
      for (const file of files) if (file.trashedAt === null) await r.trash.trashFile(file.id, now);
      for (const folder of folders) {
        if (folder.trashedAt !== null) continue;
        await r.trash.trashFolder(folder.id, await r.folders.subtreeIds(ownerId, [folder.id]), now);
      }
    });
  }

  async restore(ownerId: string, items: ItemRef[]): Promise<void> {
    const now = this.clock.now();
    await this.uow.run(async (r) => {
      await r.folders.lockTree(ownerId);
      const { files, folders } = await this.resolve(ownerId, items, r);
      for (const folder of folders) {
        if (folder.trashedAt === null) continue;
        const parentId = await this.restoredParent(r, ownerId, folder.parentId, folder.id);
        const cascades = [folder.id, ...(folder.trashedVia ? [folder.trashedVia] : [])];
        await r.trash.restoreFolder(folder.id, parentId, await r.folders.subtreeIds(ownerId, [folder.id]), cascades, now);
        await this.events.folderChanged(r.db, folder, folder);
      }
      for (const file of files) {
        const current = await r.files.findOwned(ownerId, file.id);
        if (!current || current.trashedAt === null) continue;
        const folderId = await this.restoredParent(r, ownerId, current.folderId);
        await r.trash.restoreFile(file.id, folderId, now);
        await this.events.fileChanged(r.db, { ...current, folderId }, current.folderId);
      }
    });
    this.events.committed();
  }

  async remove(ownerId: string, items: ItemRef[]): Promise<void> {
    const { files, folders } = await this.resolve(ownerId, items);
    await this.deleteForever(
      ownerId,
      files.map((f) => f.id),
      folders.map((f) => f.id),
    );
  }

  /** Deletes items at once without passing through the trash (a failed upload's leftovers). */
  async discard(ownerId: string, fileIds: string[], folderIds: string[]): Promise<void> {
    if (fileIds.length > 0 || folderIds.length > 0) await this.deleteForever(ownerId, fileIds, folderIds);
  }

  /** Deletes trashed items older than the retention period; returns how many top-level items went. */
  async purgeExpired(retentionDays: number): Promise<number> {
    if (retentionDays <= 0) return 0;
    const cutoff = this.clock.now() - retentionDays * DAY_MS;
    let purged = 0;
    for (;;) {
      const { fileIds, folderIds } = await this.uow.repos.trash.expired(cutoff, PURGE_BATCH);
      if (fileIds.length === 0 && folderIds.length === 0) return purged;
      const owners = await this.ownersOf(fileIds, folderIds);
      for (const [ownerId, ids] of owners) await this.deleteForever(ownerId, ids.files, ids.folders);
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
