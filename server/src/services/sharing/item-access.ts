import type { ItemAccessRole, ItemRef, ShareAccountDto } from '@nimbus/common';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FolderRow } from '../../db/repositories/folder.repository.js';
import type { ItemShareRepository, ShareOnChain } from '../../db/repositories/item-share.repository.js';
import type { DriveRepositories } from '../../db/unit-of-work.js';
import type { ShareRole } from '../../db/schema.js';
import { ForbiddenError, NotFoundError } from '../../domain/errors.js';

export type AccessNeed = 'read' | 'write';

/** The share an access comes through. */
export interface ShareOrigin {
  id: string;
  rootId: string;
  rootType: 'file' | 'folder';
  role: ShareRole;
  owner: ShareAccountDto;
}

/** What the caller may do with an item, and whose drive the services must act on. */
export interface ItemAccessAnswer {
  ownerId: string;
  role: ItemAccessRole;
  share?: ShareOrigin;
  /** Every share of the caller that grants what was needed here (nested shares can overlap). */
  via?: string[];
}

const ROOT = '/';

function notFound(type: 'file' | 'folder'): NotFoundError {
  return type === 'file'
    ? new NotFoundError('FILE_NOT_FOUND', 'File not found')
    : new NotFoundError('FOLDER_NOT_FOUND', 'Folder not found');
}

/**
 * The one place that decides what a caller may do with a file or folder: their own, or reached
 * through a share of it or of a folder above it. Anything else answers exactly as a foreign id
 * always did (404), so strangers learn nothing; a viewer asking to change something gets 403.
 * Admins get nothing more than anyone else.
 */
export class ItemAccess {
  constructor(
    private readonly repos: Pick<DriveRepositories, 'files' | 'folders'>,
    private readonly shares: ItemShareRepository,
  ) {}

  async file(callerId: string, id: string, need: AccessNeed): Promise<ItemAccessAnswer> {
    const file = await this.repos.files.findById(id);
    if (!file) throw notFound('file');
    if (file.ownerId === callerId) return { ownerId: callerId, role: 'owner' };
    return this.throughShare(callerId, file, 'file', need);
  }

  async folder(callerId: string, id: string, need: AccessNeed): Promise<ItemAccessAnswer> {
    const folder = await this.repos.folders.findById(id);
    if (!folder) throw notFound('folder');
    if (folder.ownerId === callerId) return { ownerId: callerId, role: 'owner' };
    return this.throughShare(callerId, folder, 'folder', need);
  }

  /** A destination or upload parent: '/' is always the caller's own root. */
  parent(callerId: string, parentRef: string, need: AccessNeed): Promise<ItemAccessAnswer> {
    if (parentRef === ROOT) return Promise.resolve({ ownerId: callerId, role: 'owner' });
    return this.folder(callerId, parentRef, need);
  }

  /** Reading the thumbnail of a file. */
  async thumbnail(callerId: string, thumbnailId: string): Promise<ItemAccessAnswer> {
    const fileId = await this.shares.fileOfThumbnail(thumbnailId);
    if (fileId === undefined) throw notFound('file');
    return this.file(callerId, fileId, 'read');
  }

  item(callerId: string, ref: ItemRef, need: AccessNeed): Promise<ItemAccessAnswer> {
    return ref.type === 'file' ? this.file(callerId, ref.id, need) : this.folder(callerId, ref.id, need);
  }

  /**
   * Several items of one call: all must be of one drive and reached the same way (all the caller's
   * own, or all through the same share).
   */
  async items(callerId: string, refs: ItemRef[], need: AccessNeed): Promise<ItemAccessAnswer> {
    let common: ItemAccessAnswer | undefined;
    for (const ref of refs) {
      const access = await this.item(callerId, ref, need);
      if (common && !sameSpace(common, access)) throw moveRefused();
      common ??= access;
    }
    return common ?? { ownerId: callerId, role: 'owner' };
  }

  private async throughShare(
    callerId: string,
    item: FileRow | FolderRow,
    type: 'file' | 'folder',
    need: AccessNeed,
  ): Promise<ItemAccessAnswer> {
    if (item.trashedAt !== null) throw notFound(type);
    const fileId = type === 'file' ? item.id : null;
    const folderId = type === 'file' ? (item as FileRow).folderId : item.id;
    const found = (await this.shares.sharesOnChain(callerId, fileId, folderId)).filter((s) => s.ownerId === item.ownerId);
    if (found.length === 0) throw notFound(type);
    const editing = found.filter((s) => s.role === 'editor');
    if (need === 'write' && editing.length === 0) throw new ForbiddenError('SHARE_READ_ONLY', 'You can only view this shared item');
    const granting = editing.length > 0 ? editing : found;
    // The highest share reaching the item: the widest view, and its root is the only item it locks.
    const chosen = granting[granting.length - 1]!;
    return { ownerId: item.ownerId, role: chosen.role, share: originOf(chosen), via: granting.map((s) => s.id) };
  }
}

function originOf(share: ShareOnChain): ShareOrigin {
  return {
    id: share.id,
    rootId: share.itemId,
    rootType: share.itemType,
    role: share.role,
    owner: { id: share.ownerId, email: share.ownerEmail },
  };
}

function moveRefused(): ForbiddenError {
  return new ForbiddenError('SHARE_MOVE_REFUSED', 'Items can only move within the same shared folder');
}

/** Both the caller's own, or both reached through one same share. */
export function sameSpace(a: ItemAccessAnswer, b: ItemAccessAnswer): boolean {
  if (a.ownerId !== b.ownerId) return false;
  if (!a.share || !b.share) return !a.share && !b.share;
  const shared = new Set(a.via);
  return (b.via ?? []).some((id) => shared.has(id));
}

/** A move between a share and anything outside it would hand bytes from one account to another. */
export function assertSameSpace(item: ItemAccessAnswer, destination: ItemAccessAnswer): void {
  if (!sameSpace(item, destination)) throw moveRefused();
}

/** An editor changes what is inside a share, never the shared item itself. */
export function assertNotShareRoot(access: ItemAccessAnswer, id: string): void {
  if (access.share?.rootId === id)
    throw new ForbiddenError('SHARE_ROOT_LOCKED', 'The shared item itself cannot be renamed, moved or trashed');
}
