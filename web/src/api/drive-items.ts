import type { FileDto, FolderDto } from '@nimbus/common';
import type { OrganizeItem } from '../state/organize.slice';

/** A row of the file browser: a file or a folder. */
export type DriveItem = { type: 'file'; file: FileDto } | { type: 'folder'; folder: FolderDto };

export const fileItem = (file: FileDto): DriveItem => ({ type: 'file', file });
export const folderItem = (folder: FolderDto): DriveItem => ({ type: 'folder', folder });

export const itemId = (item: DriveItem) => (item.type === 'file' ? item.file._id : item.folder._id);
export const itemName = (item: DriveItem) => (item.type === 'file' ? item.file.filename : item.folder.name);
export const itemParent = (item: DriveItem) => (item.type === 'file' ? item.file.metadata.parent : item.folder.parent);

export function organizeItemOf(item: DriveItem): OrganizeItem {
  return { type: item.type, id: itemId(item), name: itemName(item), parent: itemParent(item) };
}

/** Where a folder opens: in the drive, or inside the trash. */
export const folderPath = (id: string, inTrash: boolean) => `${inTrash ? '/folder-trash/' : '/folder/'}${encodeURIComponent(id)}`;
