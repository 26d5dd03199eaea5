import type { FileDto } from '@nimbus/common';
import type { ShownFile } from '../../../services/drive/file.service.js';

/** A file as the owner sees it, with the field names of the myDrive API (docs/architecture.md). */
export function presentFile(row: ShownFile): FileDto {
  return {
    _id: row.id,
    filename: row.filename,
    length: row.size,
    uploadDate: new Date(row.uploadedAt).toISOString(),
    metadata: {
      owner: row.ownerId,
      parent: row.folderId ?? '/',
      size: row.size,
      contentType: row.contentType,
      hasThumbnail: row.thumbnailId !== null,
      thumbnailID: row.thumbnailId ?? '',
      isVideo: row.mediaKind === 'video',
      ...(row.linkType ? { linkType: row.linkType, link: row.linkToken ?? undefined } : {}),
      trashed: row.trashedAt !== null,
    },
  };
}
