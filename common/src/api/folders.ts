import type { SharedAccessDto } from './item-shares.js';
import { z } from 'zod';
import { SORT_ORDERS, id, parentRef } from './shared.js';

/** A folder as the API shows it. */
export interface FolderDto {
  _id: string;
  name: string;
  /** '/' at the root, else a folder id. */
  parent: string;
  owner: string;
  createdAt: string;
  updatedAt: string;
  trashed: boolean;
  /** Reached through a share from another account: whose it is and what the caller may do. */
  shared?: SharedAccessDto;
}

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');
const searchTerm = z
  .string()
  .max(256)
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

/** Query arrays arrive as `key`, `key[]`, once or repeated: always a list here. */
const idList = z
  .union([id, z.array(id)])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
  .pipe(z.array(id).max(1000));

export const listFoldersQuery = z.object({
  parent: parentRef.default('/'),
  search: searchTerm,
  sortBy: z.enum(SORT_ORDERS).default('date_desc'),
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
  trashMode: flag,
});

/**
 * Folders to leave out of the move targets. myDrive sends an empty id for a file right-clicked
 * without being selected: it leaves out nothing.
 */
const excludedIds = z
  .union([z.string(), z.array(z.string()).max(1000)])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]).filter((s) => s !== ''))
  .pipe(z.array(id).max(1000));

export const moveFolderListQuery = z.object({
  parent: parentRef.default('/'),
  search: searchTerm,
  folderIDs: excludedIds,
  currentParent: parentRef.optional(),
});

export const createFolderBody = z.object({ name: z.string().max(4096), parent: parentRef.default('/') });

export const downloadZipQuery = z.object({ folderIDs: idList, fileIDs: idList });
