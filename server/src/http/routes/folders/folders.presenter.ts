import type { FolderDto } from '@nimbus/common';
import type { FolderRow } from '../../../services/drive/folder.service.js';

export function presentFolder(row: FolderRow): FolderDto {
  return {
    _id: row.id,
    name: row.name,
    parent: row.parentId ?? '/',
    owner: row.ownerId,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    trashed: row.trashedAt !== null,
  };
}
