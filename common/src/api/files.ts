import { z } from 'zod';
import { LIMITS } from '../limits.js';
import type { FolderDto } from './folders.js';
import type { SharedAccessDto } from './item-shares.js';
import { SORT_ORDERS, id, parentRef } from './shared.js';

export type LinkType = 'public' | 'one';

/** A file as the API shows it. */
export interface FileDto {
  _id: string;
  filename: string;
  /** Bytes. */
  length: number;
  /** ISO 8601. */
  uploadDate: string;
  metadata: {
    owner: string;
    /** '/' at the root, else a folder id. */
    parent: string;
    size: number;
    contentType: string;
    hasThumbnail: boolean;
    thumbnailID: string;
    isVideo: boolean;
    linkType?: LinkType;
    /** Token of the public URL, when shared. */
    link?: string;
    trashed: boolean;
    /** In the media gallery: the still of a Live Photo, with the id of its MOV (a video file of its own). */
    livePhoto?: { videoId: string };
    /** In the media gallery: a motion photo, with the URL of the clip it carries. */
    motion?: { url: string };
  };
  /** Reached through a share from another account: whose it is and what the caller may do. */
  shared?: SharedAccessDto;
}

export interface SuggestedListResponse {
  folderList: FolderDto[];
  fileList: FileDto[];
}

export const MEDIA_FILTERS = ['all', 'photos', 'videos'] as const;
export type MediaFilter = (typeof MEDIA_FILTERS)[number];

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');
const searchTerm = z
  .string()
  .max(256)
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

export const listFilesQuery = z.object({
  parent: parentRef.default('/'),
  search: searchTerm,
  sortBy: z.enum(SORT_ORDERS).default('date_desc'),
  limit: z.coerce.number().int().min(1).max(LIMITS.mediaPageSize).optional(),
  trashMode: flag,
  mediaMode: flag,
  mediaFilter: z.enum(MEDIA_FILTERS).default('all'),
  startAt: flag,
  startAtDate: z.iso.datetime({ offset: true }).optional(),
  startAtName: z.string().max(2048).optional(),
  /** Tie-breaker of the cursor: the last file's _id. */
  startAtId: id.optional(),
});
export type ListFilesQuery = z.infer<typeof listFilesQuery>;

export const quickListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.mediaPageSize).default(LIMITS.quickListSize),
});

export const suggestedListQuery = z.object({
  search: searchTerm,
  trashMode: flag,
  mediaMode: flag,
});

export const idBody = z.object({ id });
export const renameBody = z.object({ id, title: z.string().max(4096) });
export const moveBody = z.object({ id, parentID: parentRef });

export const itemRef = z.object({ type: z.enum(['file', 'folder', 'quick-item']), id });
export const itemsBody = z.object({ items: z.array(itemRef).min(1).max(1000), parentID: parentRef.optional() });
export const moveItemsBody = z.object({ items: z.array(itemRef).min(1).max(1000), parentID: parentRef });
export type ItemRef = z.infer<typeof itemRef>;

/**
 * The answer to make-public and make-one: the updated file's own fields, plus the `{ file, token }`
 * myDrive's own client reads (`token` is the link's token, the file's `metadata.link`).
 */
export type LinkedFileDto = FileDto & { file: FileDto; token: string };

/** What anyone holding a share link sees: the public download page, nothing more. */
export interface PublicFileDto {
  _id: string;
  filename: string;
  length: number;
  uploadDate: string;
  metadata: { linkType: LinkType; size: number };
}

export const shareLinkParams = z.object({ id, token: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'Invalid link') });
