import { z } from 'zod';
import { LIMITS } from '../limits.js';
import type { FileDto } from './files.js';
import type { FolderDto } from './folders.js';
import { id } from './shared.js';

/**
 * Sharing a file or folder with another account of the server (`/item-share-service/...`). A
 * viewer browses, previews and downloads; an editor also uploads, makes folders, renames, moves
 * within the shared folder and trashes (into the owner's trash). What an editor adds is the owner's.
 */
export const SHARE_ROLES = ['viewer', 'editor'] as const;
export type ShareRole = (typeof SHARE_ROLES)[number];
/** What a caller may do with an item: its owner, a recipient of a share, or nothing (answered 404). */
export type ItemAccessRole = 'owner' | ShareRole;

export const ITEM_SHARE_LIMITS = { sharesPerItem: 100 } as const;

export interface ShareAccountDto {
  id: string;
  email: string;
}

/** The owner's view of one share. */
export interface ItemShareDto {
  id: string;
  itemType: 'file' | 'folder';
  itemId: string;
  recipient: ShareAccountDto;
  role: ShareRole;
  createdAt: string;
}

/** One item under "Shared with me". */
export interface SharedWithMeDto {
  shareId: string;
  role: ShareRole;
  owner: ShareAccountDto;
  sharedAt: string;
  itemType: 'file' | 'folder';
  file?: FileDto;
  folder?: FolderDto;
}

/**
 * Told with a folder's info and with files and folders reached through a share: whose it is and what
 * the caller may do. Absent on the caller's own items.
 */
export interface SharedAccessDto {
  role: ShareRole;
  owner: ShareAccountDto;
  /** The shared folder or file the access comes from: the top of the recipient's breadcrumbs. */
  rootId: string;
  rootType: 'file' | 'folder';
}

export const itemShareQuery = z.object({ itemType: z.enum(['file', 'folder']), itemId: id });

export const createItemShareBody = z.object({
  itemType: z.enum(['file', 'folder']),
  itemId: id,
  email: z.string().trim().min(1).max(LIMITS.emailMax),
  role: z.enum(SHARE_ROLES),
});
export type CreateItemShareBody = z.infer<typeof createItemShareBody>;

export const updateItemShareBody = z.object({ role: z.enum(SHARE_ROLES) }).strict();

export const itemShareParams = z.object({ id });
