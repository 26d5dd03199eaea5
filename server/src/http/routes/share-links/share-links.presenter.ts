import type { DropOriginDto, ShareLinkDto, SharedFileDto, SharedFolderDto } from '@nimbus/common';
import { type DropOriginRow, isLive, type OwnedLink } from '../../../services/sharing/share-link.service.js';
import type { FileRow } from '../../../services/drive/file.service.js';
import type { FolderRow } from '../../../services/drive/folder.service.js';
import { isBrowserImage } from '../../../media/formats.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function presentLink({ link, itemName, itemTrashed }: OwnedLink, now: number): ShareLinkDto {
  return {
    id: link.id,
    kind: link.kind,
    itemType: link.itemType,
    itemId: link.itemId,
    itemName,
    token: link.token,
    hasPassword: link.passwordHash !== null,
    expiresAt: iso(link.expiresAt),
    maxDownloads: link.maxDownloads,
    downloads: link.downloads,
    allowDownload: link.allowDownload === 1,
    maxFileBytes: link.maxFileBytes,
    maxFiles: link.maxFiles,
    filesReceived: link.filesReceived,
    createdAt: new Date(link.createdAt).toISOString(),
    lastAccessAt: iso(link.lastAccessAt),
    active: !itemTrashed && isLive(link, now),
  };
}

/** A file as a link's visitor sees it: nothing of its owner, folder or links. */
export function presentSharedFile(file: FileRow): SharedFileDto {
  return {
    id: file.id,
    filename: file.filename,
    size: file.size,
    contentType: file.contentType,
    uploadDate: new Date(file.uploadedAt).toISOString(),
    hasThumbnail: file.thumbnailId !== null,
    isVideo: file.mediaKind === 'video',
    isImage: file.mediaKind === 'photo' || isBrowserImage(file.contentType),
  };
}

export function presentSharedFolder(folder: FolderRow): SharedFolderDto {
  return { id: folder.id, name: folder.name };
}

export function presentDropOrigin(origin: DropOriginRow): DropOriginDto {
  return { linkId: origin.linkId, uploaderName: origin.uploaderName, uploadedAt: new Date(origin.uploadedAt).toISOString() };
}
