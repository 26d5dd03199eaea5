import type { FileDto, FolderDto, ItemAccessRole, SharedAccessDto } from '@nimbus/common';

/** What the signed-in account may do with an item: its own, or reached through a share as viewer or editor. */
export interface ItemAccess {
  role: ItemAccessRole;
  /** The shared item itself (top of the recipient's view): the recipient may not rename, move or trash it. */
  isShareRoot: boolean;
  owner?: SharedAccessDto['owner'];
}

export const OWN_ACCESS: ItemAccess = { role: 'owner', isShareRoot: false };

export function accessOf(id: string, shared: SharedAccessDto | undefined): ItemAccess {
  if (!shared) return OWN_ACCESS;
  return { role: shared.role, isShareRoot: shared.rootId === id, owner: shared.owner };
}

export const fileAccess = (file: FileDto) => accessOf(file._id, file.shared);
export const folderAccess = (folder: FolderDto) => accessOf(folder._id, folder.shared);

/** Whether new items (uploads, folders) may go into a folder with this access. */
export const canAddInto = (access: ItemAccess) => access.role !== 'viewer';
