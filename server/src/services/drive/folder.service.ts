import { LIMITS } from '@nimbus/common';
import type { FolderRow, FolderSort } from '../../db/repositories/folder.repository.js';
import type { DriveRepositories, UnitOfWork } from '../../db/unit-of-work.js';
import { InvalidError, NotFoundError } from '../../domain/errors.js';
import { nameKeyOf, sanitizeName } from '../../domain/names.js';
import { newId } from '../../security/ids.js';
import type { Clock } from '../clock.js';
import type { DriveEvents } from './drive-events.js';

export type { FolderRow } from '../../db/repositories/folder.repository.js';

export const ROOT = '/';

/** Folders of one owner; anything another user owns is "not found". */
export class FolderService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly events: DriveEvents,
    private readonly clock: Clock,
  ) {}

  async get(ownerId: string, id: string): Promise<FolderRow> {
    const folder = await this.uow.repos.folders.findOwned(ownerId, id);
    if (!folder) throw new NotFoundError('FOLDER_NOT_FOUND', 'Folder not found');
    return folder;
  }

  /** '/' → null (root); otherwise an active folder of the owner. */
  async resolveActiveParent(ownerId: string, parent: string, repos: DriveRepositories = this.uow.repos): Promise<string | null> {
    if (parent === ROOT) return null;
    const folder = await repos.folders.findOwned(ownerId, parent);
    if (!folder || folder.trashedAt !== null) throw new NotFoundError('FOLDER_NOT_FOUND', 'Folder not found');
    return folder.id;
  }

  async create(ownerId: string, name: string, parent: string): Promise<FolderRow> {
    const clean = sanitizeName(name);
    const now = this.clock.now();
    const row = await this.uow.run(async (r) => {
      // Checked and inserted under the tree lock: a parent trashed meanwhile never gets an active child.
      await r.folders.lockTree(ownerId);
      const parentId = await this.resolveActiveParent(ownerId, parent, r);
      if (parentId !== null) assertDepth((await r.folders.depthOf(parentId)) + 1);
      const created: FolderRow = {
        id: newId(),
        ownerId,
        parentId,
        name: clean,
        nameKey: nameKeyOf(clean),
        createdAt: now,
        updatedAt: now,
        trashedAt: null,
        trashedVia: null,
      };
      await r.folders.insert(created);
      await this.events.folderChanged(r.db, created, null);
      return created;
    });
    this.events.committed();
    return row;
  }

  async list(
    ownerId: string,
    q: { parent: string; search?: string; sortBy: FolderSort; limit?: number; trashMode: boolean },
  ): Promise<FolderRow[]> {
    const parentId = q.parent === ROOT || q.search ? null : (await this.get(ownerId, q.parent)).id;
    return this.uow.repos.folders.list({
      ownerId,
      parentId,
      trashMode: q.trashMode,
      search: q.search ? nameKeyOf(q.search) : undefined,
      sort: q.sortBy,
      limit: q.limit ?? LIMITS.folderListMax,
    });
  }

  /** Targets for the move dialog: active folders, never the moved folders or anything inside them. */
  async moveTargets(ownerId: string, q: { parent: string; search?: string; folderIDs: string[] }): Promise<FolderRow[]> {
    const parentId = q.parent === ROOT || q.search ? null : (await this.get(ownerId, q.parent)).id;
    return this.uow.repos.folders.list({
      ownerId,
      parentId,
      trashMode: false,
      search: q.search ? nameKeyOf(q.search) : undefined,
      sort: 'alp_asc',
      limit: LIMITS.folderListMax,
      excludeSubtreesOf: q.folderIDs,
    });
  }

  async rename(ownerId: string, id: string, title: string): Promise<FolderRow> {
    const name = sanitizeName(title);
    const renamed = await this.uow.run(async (r) => {
      const folder = await r.folders.findOwned(ownerId, id);
      if (!folder) throw new NotFoundError('FOLDER_NOT_FOUND', 'Folder not found');
      await r.folders.rename(folder.id, name, nameKeyOf(name), this.clock.now());
      const after = (await r.folders.findOwned(ownerId, id))!;
      await this.events.folderChanged(r.db, after, folder);
      return after;
    });
    this.events.committed();
    return renamed;
  }

  async move(ownerId: string, id: string, parentRef: string): Promise<FolderRow> {
    const after = await this.uow.run(async (r) => {
      await r.folders.lockTree(ownerId);
      const folder = await r.folders.findOwned(ownerId, id);
      if (!folder || folder.trashedAt !== null) throw new NotFoundError('FOLDER_NOT_FOUND', 'Folder not found');
      const parentId = await this.resolveActiveParent(ownerId, parentRef, r);
      await this.checkFolderMove(r, ownerId, folder.id, parentId);
      await r.folders.move(folder.id, parentId, this.clock.now());
      const moved = (await r.folders.findOwned(ownerId, id))!;
      await this.events.folderChanged(r.db, moved, folder);
      return moved;
    });
    this.events.committed();
    return after;
  }

  /**
   * Inside a transaction holding the owner's tree lock: a folder never moves into itself or below
   * itself, and the move keeps the tree within the depth limit. Checked under the lock, two
   * crossing moves (A into B, B into A) can never both pass and leave a cycle.
   */
  async checkFolderMove(r: DriveRepositories, ownerId: string, folderId: string, parentId: string | null): Promise<void> {
    if (parentId === null) return;
    if (await r.folders.isWithin(ownerId, parentId, folderId)) {
      throw new InvalidError('A folder cannot be moved into itself or one of its subfolders', undefined, 'INVALID_MOVE');
    }
    assertDepth((await r.folders.depthOf(parentId)) + 1 + (await r.folders.heightBelow(folderId)));
  }
}

function assertDepth(depth: number): void {
  if (depth > LIMITS.folderDepthMax) {
    throw new InvalidError(`Folders can be nested at most ${LIMITS.folderDepthMax} levels deep`, undefined, 'FOLDER_TOO_DEEP');
  }
}
