import { z } from 'zod';
import { id } from './shared.js';

/**
 * Links to a file or a folder beside a file's single public or one-time link (the share popup's): several per
 * item, each with its own options. `view` shows the item (and downloads it, unless turned off);
 * `drop` lets visitors upload into a folder and shows them nothing of it.
 */
export const SHARE_LINK_KINDS = ['view', 'drop'] as const;
export type ShareLinkKind = (typeof SHARE_LINK_KINDS)[number];
export type SharedItemType = 'file' | 'folder';

export const SHARE_LIMITS = {
  passwordMinLength: 4,
  passwordMaxLength: 256,
  maxDownloads: 1_000_000,
  maxDropFiles: 100_000,
  linksPerItem: 50,
  uploaderNameMaxLength: 100,
} as const;

/** The owner's view of one link. */
export interface ShareLinkDto {
  id: string;
  kind: ShareLinkKind;
  itemType: SharedItemType;
  itemId: string;
  /** The item's current name; its path is the owner's to know, not the link's. */
  itemName: string;
  /** The secret part of the public address `/s/{token}`. */
  token: string;
  hasPassword: boolean;
  /** ISO 8601, or null for never. */
  expiresAt: string | null;
  maxDownloads: number | null;
  downloads: number;
  allowDownload: boolean;
  /** Drop links: the largest file a visitor may send, and how many files in all (null: no limit). */
  maxFileBytes: number | null;
  maxFiles: number | null;
  filesReceived: number;
  createdAt: string;
  lastAccessAt: string | null;
  /** Expired, out of downloads or files, or its item in the trash: the link answers nothing. */
  active: boolean;
}

const optionalDate = z.iso.datetime({ offset: true }).nullable().optional();
const positive = (max: number) => z.number().int().min(1).max(max).nullable().optional();

const options = {
  password: z.string().min(SHARE_LIMITS.passwordMinLength).max(SHARE_LIMITS.passwordMaxLength).nullable().optional(),
  expiresAt: optionalDate,
  maxDownloads: positive(SHARE_LIMITS.maxDownloads),
  allowDownload: z.boolean().optional(),
  maxFileBytes: positive(Number.MAX_SAFE_INTEGER),
  maxFiles: positive(SHARE_LIMITS.maxDropFiles),
};

export const createShareLinkBody = z
  .object({ itemType: z.enum(['file', 'folder']), itemId: id, kind: z.enum(SHARE_LINK_KINDS).default('view'), ...options })
  .strict();
export type CreateShareLinkBody = z.infer<typeof createShareLinkBody>;

/** Omitted options stay as they are; null clears one (no password, no expiry, no limit). */
export const updateShareLinkBody = z.object(options).strict();
export type UpdateShareLinkBody = z.infer<typeof updateShareLinkBody>;

export const shareLinksQuery = z.object({ itemId: id.optional() });

export const shareTokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'Invalid link') });
export const unlockShareBody = z.object({ password: z.string().min(1).max(SHARE_LIMITS.passwordMaxLength) }).strict();

/** An item as a visitor of a link sees it: no owner, no parent above the shared folder. */
export interface SharedFileDto {
  id: string;
  filename: string;
  size: number;
  contentType: string;
  uploadDate: string;
  hasThumbnail: boolean;
  isVideo: boolean;
  isImage: boolean;
}

export interface SharedFolderDto {
  id: string;
  name: string;
}

/** GET /share-service/public/{token}. Before the password, only that one is needed. */
export interface SharedLinkInfoDto {
  kind: ShareLinkKind;
  itemType: SharedItemType;
  passwordRequired: boolean;
  /** The rest is present once the visitor may see the link. */
  name?: string;
  allowDownload?: boolean;
  expiresAt?: string | null;
  file?: SharedFileDto;
  folder?: SharedFolderDto;
  drop?: { maxFileBytes: number | null; maxFiles: number | null; filesLeft: number | null };
}

/** GET /share-service/public/{token}/list: one folder of a shared folder, a page of its files. */
export interface SharedListingDto {
  folder: SharedFolderDto;
  /** From the shared folder down to this one. */
  path: SharedFolderDto[];
  folders: SharedFolderDto[];
  files: SharedFileDto[];
  /** Pass as `after` for the next page of files; null on the last page. */
  next: string | null;
}

export const sharedListQuery = z.object({
  folder: id.optional(),
  after: z.string().max(2048).optional(),
  sortBy: z.enum(['alp_asc', 'alp_desc', 'date_asc', 'date_desc']).default('alp_asc'),
});

export const sharedZipQuery = z.object({ folder: id.optional() });

/** Who sent a file through a drop link, for its owner. */
export interface DropOriginDto {
  linkId: string;
  uploaderName: string | null;
  uploadedAt: string;
}
