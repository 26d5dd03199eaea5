import type { FileDto, SharedAccessDto } from '@nimbus/common';
import type { ShownFile } from '../../../services/drive/file.service.js';
import type { PhotoMotionLink } from '../../../services/media/live-photo.service.js';

/** A file as the owner sees it, with the field names of the myDrive API (docs/architecture.md). */
export function presentFile(row: ShownFile): FileDto {
  return presentSharedFile(row, undefined);
}

/** The gallery's photo with its motion: the MOV of its Live Photo, or the clip of a motion photo. */
export function withMotion(dto: FileDto, link: PhotoMotionLink | undefined): FileDto {
  if (!link) return dto;
  if ('videoId' in link) dto.metadata.livePhoto = { videoId: link.videoId };
  else dto.metadata.motion = { url: `/file-service/motion/${encodeURIComponent(dto._id)}` };
  return dto;
}

/** A file as a recipient of a share sees it (the shared file itself sits at their root); as the owner without `shared`. */
export function presentSharedFile(row: ShownFile, shared: SharedAccessDto | undefined): FileDto {
  const dto: FileDto = {
    _id: row.id,
    filename: row.filename,
    length: row.size,
    uploadDate: new Date(row.uploadedAt).toISOString(),
    metadata: {
      owner: row.ownerId,
      parent: shared?.rootId === row.id ? '/' : (row.folderId ?? '/'),
      size: row.size,
      contentType: row.contentType,
      hasThumbnail: row.thumbnailId !== null,
      thumbnailID: row.thumbnailId ?? '',
      isVideo: row.mediaKind === 'video',
      // A file's public or one-time link stays its owner's to hand out.
      ...(row.linkType && !shared ? { linkType: row.linkType, link: row.linkToken ?? undefined } : {}),
      trashed: row.trashedAt !== null,
    },
  };
  if (shared) dto.shared = shared;
  return dto;
}
