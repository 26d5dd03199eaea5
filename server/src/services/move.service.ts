import type { ItemRef } from '@nimbus/common';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { InvalidError, NotFoundError } from '../domain/errors.js';
import type { Clock } from './clock.js';
import type { FolderService } from './folder.service.js';
import type { TrashService } from './trash.service.js';

/** Moves several items at once: every item and the target are checked before anything moves. */
export class MoveService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly folders: FolderService,
    private readonly trash: TrashService,
    private readonly clock: Clock,
  ) {}

  async moveMany(ownerId: string, items: ItemRef[], parentRef: string): Promise<void> {
    const { files, folders } = await this.trash.resolve(ownerId, items);
    if ([...files, ...folders].some((item) => item.trashedAt !== null)) throw new NotFoundError('NOT_FOUND', 'Item not found');
    const parentId = await this.folders.resolveActiveParent(ownerId, parentRef);
    if (parentId !== null) {
      for (const folder of folders) {
        if (await this.uow.repos.folders.isWithin(ownerId, parentId, folder.id)) {
          throw new InvalidError('A folder cannot be moved into itself or one of its subfolders', undefined, 'INVALID_MOVE');
        }
      }
    }
    const now = this.clock.now();
    await this.uow.run(async (r) => {
      for (const file of files) await r.files.move(file.id, parentId, now);
      for (const folder of folders) await r.folders.move(folder.id, parentId, now);
    });
  }
}
