import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FileMediaRepository } from '../../db/repositories/file-media.repository.js';
import { NotFoundError } from '../../domain/errors.js';
import { isAudio } from '../../media/audio-tags.js';
import { isBrowserImage } from '../../media/formats.js';
import type { EncryptedStore } from '../../storage/blob-store.js';
import type { FileService } from '../drive/file.service.js';
import { fileAsset, type StoredAsset } from '../downloads/stored-asset.js';

export type { StoredAsset } from '../downloads/stored-asset.js';

function notFound(): NotFoundError {
  return new NotFoundError('FILE_NOT_FOUND', 'File not found');
}

/** Thumbnails, full-size images and video streams of one owner's files. */
export class MediaService {
  constructor(
    private readonly files: FileService,
    private readonly media: FileMediaRepository,
    private readonly store: EncryptedStore,
  ) {}

  async thumbnail(ownerId: string, thumbnailId: string): Promise<StoredAsset> {
    const row = await this.media.findOwnedThumbnail(ownerId, thumbnailId);
    if (!row?.thumbnailId || row.thumbnailWrappedKey === null || row.thumbnailSize === null || row.thumbnailSha256 === null)
      throw notFound();
    const { thumbnailId: key, thumbnailWrappedKey: wrappedKey, thumbnailSize: size } = row;
    return {
      filename: 'thumbnail.webp',
      size,
      contentType: 'image/webp',
      sha256: row.thumbnailSha256,
      modifiedAt: row.processedAt,
      open: (range) => this.store.read(key, wrappedKey, size, range),
    };
  }

  /** The image as a browser can show it: the original, or its converted preview (TIFF, HEIC). */
  async fullImage(ownerId: string, fileId: string): Promise<StoredAsset> {
    const file = await this.files.get(ownerId, fileId);
    if (isBrowserImage(file.contentType)) return this.original(file);
    const row = file.mediaKind === 'photo' ? await this.media.find(file.id) : undefined;
    if (!row?.previewId || row.previewWrappedKey === null || row.previewSize === null || row.previewSha256 === null) throw notFound();
    const { previewId: key, previewWrappedKey: wrappedKey, previewSize: size } = row;
    const contentType = row.previewContentType ?? 'image/webp';
    return {
      filename: `${file.filename}.${contentType.split('/')[1] ?? 'img'}`,
      size,
      contentType,
      sha256: row.previewSha256,
      modifiedAt: row.processedAt,
      open: (range) => this.store.read(key, wrappedKey, size, range),
    };
  }

  async video(ownerId: string, fileId: string): Promise<StoredAsset> {
    const file = await this.files.get(ownerId, fileId);
    if (file.mediaKind !== 'video') throw notFound();
    return this.original(file);
  }

  /** An audio file's own bytes, to read its tags from. */
  async audio(ownerId: string, fileId: string): Promise<StoredAsset> {
    const file = await this.files.get(ownerId, fileId);
    if (!isAudio(file.contentType)) throw notFound();
    return this.original(file);
  }

  private original(file: FileRow): StoredAsset {
    return fileAsset(file, this.store);
  }
}
