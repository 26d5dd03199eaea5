import type { ItemRef } from '@nimbus/common';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError } from '../../domain/errors.js';
import type { Clock } from '../clock.js';
import type { DriveEvents } from './drive-events.js';
import type { FolderService } from './folder.service.js';
import type { TrashService } from './trash.service.js';

/** Moves several items at once: every item and the target are checked before anything moves. */
export class MoveService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly folders: FolderService,
    private readonly trash: TrashService,
    private readonly events: DriveEvents,
    private readonly clock: Clock,
  ) {}

  async moveMany(ownerId: string, items: ItemRef[], parentRef: string): Promise<void> {
    const now = this.clock.now();
    await this.uow.run(async (r) => {
      // Every check runs again under the owner's tree lock, so concurrent moves can't cross.
      await r.folders.lockTree(ownerId);
      const { files, folders } = await this.trash.resolve(ownerId, items, r);
      if ([...files, ...folders].some((item) => item.trashedAt !== null)) throw new NotFoundError('NOT_FOUND', 'Item not found');
      const parentId = await this.folders.resolveActiveParent(ownerId, parentRef, r);
      for (const folder of folders) await this.folders.checkFolderMove(r, ownerId, folder.id, parentId);
      for (const file of files) {
        await r.files.move(file.id, parentId, now);
        await this.events.fileChanged(r.db, { ...file, folderId: parentId }, file.folderId);
      }
      for (const folder of folders) {
        await r.folders.move(folder.id, parentId, now);
        await this.events.folderChanged(r.db, folder, folder);
      }
    });
    this.events.committed();
  }
}
