import type { FileDto, FolderDto, SharedWithMeDto } from '@nimbus/common';
import { formatListDate } from '../format/format-date';
import { ROLE_LABELS } from '../item-shares/share-messages';

export interface SharedEntry {
  shareId: string;
  caption: string;
}

export interface SharedItems {
  folders: FolderDto[];
  files: FileDto[];
  /** By item id: the share it came through and the line shown under its name. */
  entries: Map<string, SharedEntry>;
}

/**
 * The items as the browser components draw them, each marked as reached through its share (the
 * server may leave the mark off the shared item itself: it is the top of its own share).
 */
export function sharedItemsOf(list: readonly SharedWithMeDto[]): SharedItems {
  const result: SharedItems = { folders: [], files: [], entries: new Map() };
  for (const share of list) {
    const item = share.file ?? share.folder;
    if (!item) continue;
    const shared = item.shared ?? { role: share.role, owner: share.owner, rootId: item._id, rootType: share.itemType };
    const caption = `${share.owner.email} · ${ROLE_LABELS[share.role]} · Shared ${formatListDate(share.sharedAt)}`;
    result.entries.set(item._id, { shareId: share.shareId, caption });
    if (share.file) result.files.push({ ...share.file, shared });
    else if (share.folder) result.folders.push({ ...share.folder, shared });
  }
  return result;
}
