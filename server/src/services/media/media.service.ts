import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FileMediaRepository, FileRenditionRepository, FileRenditionRow } from '../../db/repositories/file-media.repository.js';
import { NotFoundError } from '../../domain/errors.js';
import { isAudio } from '../../media/audio-tags.js';
import { isBrowserImage } from '../../media/formats.js';
import type { EncryptedStore } from '../../storage/blob-store.js';
import type { FileService } from '../drive/file.service.js';
import { fileAsset, type StoredAsset } from '../downloads/stored-asset.js';

export type { StoredAsset } from '../downloads/stored-asset.js';

/** Whether a video plays as stored, its playable copy is on its way or ready, or there will be none. */
export type VideoPlaybackState = 'original' | 'preparing' | 'ready' | 'failed' | 'off';

/** What the player needs of video renditions (see RenditionService). */
export interface VideoRenditions {
  repo: FileRenditionRepository;
  /** VIDEO_TRANSCODE: off answers `off` for a video never probed. */
  enabled: boolean;
  /** Enqueues the probe of a video stored before renditions existed (deduplicated). */
  requestProbe(file: FileRow): Promise<void>;
}

function notFound(): NotFoundError {
  return new NotFoundError('FILE_NOT_FOUND', 'File not found');
}

/** Thumbnails, full-size images and video streams of one owner's files. */
export class MediaService {
  constructor(
    private readonly files: FileService,
    private readonly media: FileMediaRepository,
    private readonly store: EncryptedStore,
    private readonly renditions: VideoRenditions | null = null,
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

  /** The video as the player streams it: its playable rendition when it has one, else the original. */
  async video(ownerId: string, fileId: string): Promise<StoredAsset> {
    const file = await this.files.get(ownerId, fileId);
    if (file.mediaKind !== 'video') throw notFound();
    const rendition = await this.renditionOf(file);
    if (rendition?.status !== 'ready' || !rendition.blobKey || rendition.wrappedKey === null || rendition.size === null)
      return this.original(file);
    const { blobKey: key, wrappedKey, size } = rendition;
    return {
      filename: `${file.filename.replace(/\.[^.]*$/, '')}.mp4`,
      size,
      contentType: rendition.contentType ?? 'video/mp4',
      sha256: rendition.sha256 ?? '',
      modifiedAt: rendition.processedAt,
      open: (range) => this.store.read(key, wrappedKey, size, range),
    };
  }

  /** Whether the video plays as stored, or how its playable rendition is coming along. */
  async videoState(ownerId: string, fileId: string): Promise<VideoPlaybackState> {
    const file = await this.files.get(ownerId, fileId);
    if (file.mediaKind !== 'video') throw notFound();
    const row = await this.renditionOf(file);
    if (!row) {
      if (!this.renditions?.enabled) return 'off';
      await this.renditions.requestProbe(file);
      return 'preparing';
    }
    switch (row.status) {
      case 'original':
        return 'original';
      case 'pending':
        return 'preparing';
      case 'ready':
        return 'ready';
      case 'failed':
        return 'failed';
      case 'skipped':
        return 'off';
    }
  }

  /** The rendition row of the file's current content (a replaced content's row is about to go). */
  private async renditionOf(file: FileRow): Promise<FileRenditionRow | undefined> {
    const row = await this.renditions?.repo.find(file.id);
    return row?.sourceKey === file.storageKey ? row : undefined;
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
