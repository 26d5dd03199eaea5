import type { FolderDto, SharedAccessDto } from '@nimbus/common';
import type { FolderRow } from '../../../services/drive/folder.service.js';
import { isoDate, stringJson } from '../files/files.presenter.js';

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

/**
 * `JSON.stringify(rows.map(presentFolder))`, byte for byte, without the objects in between (as
 * `presentFileListJson` for files): building and serializing the DTOs was a tenth of a folder list.
 */
export function presentFolderListJson(rows: readonly FolderRow[]): string {
  let json = '[';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (i > 0) json += ',';
    json +=
      `{"_id":${stringJson(row.id)},"name":${stringJson(row.name)},"parent":${stringJson(row.parentId ?? '/')}` +
      `,"owner":${stringJson(row.ownerId)},"createdAt":"${isoDate(row.createdAt)}","updatedAt":"${isoDate(row.updatedAt)}"` +
      `,"trashed":${row.trashedAt !== null}}`;
  }
  return json + ']';
}
