import type { FolderDto, SharedAccessDto } from '@nimbus/common';
import type { FolderRow } from '../../../services/drive/folder.service.js';
import { isoDate } from '../files/files.presenter.js';

export function presentFolder(row: FolderRow): FolderDto {
  return presentSharedFolder(row, undefined);
}

/** A folder as a recipient of a share sees it (the shared folder itself sits at their root); as the owner without `shared`. */
export function presentSharedFolder(row: FolderRow, shared: SharedAccessDto | undefined): FolderDto {
  const dto: FolderDto = {
    _id: row.id,
    name: row.name,
    parent: shared?.rootId === row.id ? '/' : (row.parentId ?? '/'),
    owner: row.ownerId,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
    trashed: row.trashedAt !== null,
  };
  if (shared) dto.shared = shared;
  return dto;
}
