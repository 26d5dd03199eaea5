import { LIMITS, type ListFilesQuery } from '@nimbus/common';
import type { FileRow, ShownFile } from '../../db/repositories/file.repository.js';
import type { FolderRow } from '../../db/repositories/folder.repository.js';
import type { MediaKind } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError } from '../../domain/errors.js';
import { nameKeyOf, sanitizeName } from '../../domain/names.js';
import type { Clock } from '../clock.js';
import type { DriveEvents } from './drive-events.js';
import { ROOT, type FolderService } from './folder.service.js';

export type { FileRow, ShownFile } from '../../db/repositories/file.repository.js';

const MEDIA_KINDS: Record<ListFilesQuery['mediaFilter'], MediaKind[]> = { all: ['photo', 'video'], photos: ['photo'], videos: ['video'] };
const SUGGESTIONS = 10;

/** Listing, search and organizing of one owner's files. */
export class FileService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly folders: FolderService,
    private readonly events: DriveEvents,
    private readonly clock: Clock,
  ) {}

  async get(ownerId: string, id: string): Promise<FileRow> {
    const file = await this.uow.repos.files.findOwned(ownerId, id);
    if (!file) throw new NotFoundError('FILE_NOT_FOUND', 'File not found');
    return file;
  }

  async list(ownerId: string, q: ListFilesQuery): Promise<ShownFile[]> {
    const spansDrive = q.mediaMode || q.search !== undefined;
    const folderId = q.parent === ROOT || spansDrive ? null : (await this.folders.get(ownerId, q.parent)).id;
    const limit = q.limit ?? (q.mediaMode ? LIMITS.mediaPageSize : LIMITS.pageSize);
    const cursor = q.startAt
      ? {
          uploadedAt: q.startAtDate === undefined ? undefined : Date.parse(q.startAtDate),
          nameKey: q.startAtName === undefined ? undefined : nameKeyOf(q.startAtName),
          id: q.startAtId,
        }
      : undefined;
    return this.uow.repos.files.listShown({
      ownerId,
      folderId,
      trashMode: q.trashMode,
      search: q.search ? nameKeyOf(q.search) : undefined,
      mediaKinds: q.mediaMode ? MEDIA_KINDS[q.mediaFilter] : undefined,
      sort: q.sortBy,
      limit,
      cursor,
    });
  }

  quickList(ownerId: string, limit: number): Promise<ShownFile[]> {
    return this.uow.repos.files.recent(ownerId, limit);
  }

  /** The search dropdown: matching folders and files anywhere in the drive. */
  async suggest(
    ownerId: string,
    q: { search?: string; trashMode: boolean; mediaMode: boolean },
  ): Promise<{ folders: FolderRow[]; files: ShownFile[] }> {
    if (!q.search) return { folders: [], files: [] };
    const search = nameKeyOf(q.search);
    const [folders, files] = await Promise.all([
      q.mediaMode
        ? Promise.resolve([])
        : this.uow.repos.folders.list({ ownerId, parentId: null, trashMode: q.trashMode, search, sort: 'alp_asc', limit: SUGGESTIONS }),
      this.uow.repos.files.listShown({
        ownerId,
        folderId: null,
        trashMode: q.trashMode,
        search,
        mediaKinds: q.mediaMode ? MEDIA_KINDS.all : undefined,
        sort: 'date_desc',
        limit: SUGGESTIONS,
      }),
    ]);
    return { folders, files };
  }

  async rename(ownerId: string, id: string, title: string): Promise<FileRow> {
    const name = sanitizeName(title);
    const renamed = await this.uow.run(async (r) => {
      const file = await r.files.findOwned(ownerId, id);
      if (!file) throw new NotFoundError('FILE_NOT_FOUND', 'File not found');
      await r.files.rename(file.id, name, nameKeyOf(name), this.clock.now());
      const after = (await r.files.findOwned(ownerId, id))!;
      await this.events.fileChanged(r.db, after, file.folderId);
      return after;
    });
    this.events.committed();
    return renamed;
  }

  async move(ownerId: string, id: string, parentRef: string): Promise<FileRow> {
    const after = await this.uow.run(async (r) => {
      // Under the tree lock, the target can't be trashed between the check and the move.
      await r.folders.lockTree(ownerId);
      const file = await r.files.findOwned(ownerId, id);
      if (!file || file.trashedAt !== null) throw new NotFoundError('FILE_NOT_FOUND', 'File not found');
      const folderId = await this.folders.resolveActiveParent(ownerId, parentRef, r);
      await r.files.move(file.id, folderId, this.clock.now());
      const moved = (await r.files.findOwned(ownerId, id))!;
      await this.events.fileChanged(r.db, moved, file.folderId);
      return moved;
    });
    this.events.committed();
    return after;
  }
}
