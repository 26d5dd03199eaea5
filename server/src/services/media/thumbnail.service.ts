import { Readable } from 'node:stream';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FileMediaRepository, FileMediaRow } from '../../db/repositories/file-media.repository.js';
import type { MediaStatus } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { MediaToolMissingError, MediaUnprocessableError } from '../../media/errors.js';
import { posterFrame } from '../../media/ffmpeg.js';
import { imagePreview, imageThumbnail, type EncodedImage } from '../../media/image-thumbnailer.js';
import { imageInput } from '../../media/image-source.js';
import { isBrowserImage, isThumbnailableImage, isVideo } from '../../media/formats.js';
import { heavyWork } from '../../media/limiter.js';
import { isAudio, readAudioTags } from '../../media/audio-tags.js';
import { isPdf, pdfThumbnail } from '../../media/pdf-thumbnailer.js';
import { withLoopbackUrl } from '../../media/loopback-source.js';
import { newId } from '../../security/ids.js';
import type { EncryptedStore } from '../../storage/blob-store.js';
import type { Clock } from '../clock.js';

export interface ThumbnailOptions {
  /** ffmpeg to run for video poster frames; null when videos get no thumbnail. */
  ffmpegPath: string | null;
  /** Larger images are skipped: decoding holds the whole original in memory. */
  maxImageBytes?: number;
}

const MAX_IMAGE_BYTES = 128 * 1024 * 1024;
/** A PDF is read whole to draw its first page; larger ones keep their icon. */
const MAX_PDF_BYTES = 64 * 1024 * 1024;

type Outcome = { status: 'ready'; thumbnail: EncodedImage; preview: EncodedImage | null } | { status: 'skipped' | 'failed'; error: string };

interface StoredImage {
  id: string;
  image: EncodedImage;
  size: number;
  sha256: string;
  wrappedKey: string;
}

/**
 * Makes a photo's or video's thumbnail (and, for images a browser cannot show, a full-size
 * preview) and stores them encrypted. Idempotent: a file already processed is left as it is.
 * A corrupt or unsupported file is recorded as failed or skipped, never retried; only a
 * failure of storage or the database throws, so the job retries.
 */
export class ThumbnailService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly media: FileMediaRepository,
    private readonly store: EncryptedStore,
    private readonly clock: Clock,
    private readonly options: ThumbnailOptions,
  ) {}

  async generate(fileId: string): Promise<MediaStatus | null> {
    const file = await this.uow.repos.files.findById(fileId);
    if (!file) return null;
    const existing = await this.media.find(fileId);
    if (existing) return existing.status;
    const outcome = await heavyWork(() => this.make(file)).catch((err: unknown): Outcome => {
      if (err instanceof MediaUnprocessableError) return { status: 'failed', error: err.message };
      if (err instanceof MediaToolMissingError) return { status: 'skipped', error: err.message };
      throw err;
    });
    await this.save(file, outcome);
    return outcome.status;
  }

  private async make(file: FileRow): Promise<Outcome> {
    if (isThumbnailableImage(file.contentType)) {
      if (file.size > (this.options.maxImageBytes ?? MAX_IMAGE_BYTES))
        return { status: 'skipped', error: 'Image is too large for a thumbnail' };
      const input = await imageInput(file.contentType, await this.readWhole(file));
      const thumbnail = await imageThumbnail(input);
      return { status: 'ready', thumbnail, preview: isBrowserImage(file.contentType) ? null : await imagePreview(input) };
    }
    if (isVideo(file.contentType)) {
      if (!this.options.ffmpegPath) throw new MediaToolMissingError('ffmpeg');
      const ffmpeg = this.options.ffmpegPath;
      const open = (range?: { start: number; end: number }) => this.store.read(file.storageKey, file.wrappedKey, file.size, range);
      const frame = await withLoopbackUrl(file.size, open, (url) => posterFrame(ffmpeg, url));
      return { status: 'ready', thumbnail: await imageThumbnail(frame), preview: null };
    }
    if (isPdf(file.contentType)) {
      if (file.size > MAX_PDF_BYTES) return { status: 'skipped', error: 'PDF is too large for a thumbnail' };
      return { status: 'ready', thumbnail: await pdfThumbnail(await this.readWhole(file)), preview: null };
    }
    if (isAudio(file.contentType)) {
      const open = (range: { start: number; end: number }) => this.store.read(file.storageKey, file.wrappedKey, file.size, range);
      const { cover } = await readAudioTags(file.size, file.contentType, open);
      if (!cover) return { status: 'skipped', error: 'The audio file has no cover art' };
      return { status: 'ready', thumbnail: await imageThumbnail(cover.data), preview: null };
    }
    return { status: 'skipped', error: `No thumbnail for ${file.contentType}` };
  }

  private async readWhole(file: FileRow): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const chunk of await this.store.read(file.storageKey, file.wrappedKey, file.size)) parts.push(chunk as Buffer);
    return Buffer.concat(parts);
  }

  private async save(file: FileRow, outcome: Outcome): Promise<void> {
    const stored: StoredImage[] = [];
    try {
      const thumbnail = outcome.status === 'ready' ? await this.put(outcome.thumbnail, stored) : null;
      const preview = outcome.status === 'ready' && outcome.preview ? await this.put(outcome.preview, stored) : null;
      const row: FileMediaRow = {
        fileId: file.id,
        ownerId: file.ownerId,
        status: outcome.status,
        error: outcome.status === 'ready' ? null : outcome.error.slice(0, 1000),
        thumbnailId: thumbnail?.id ?? null,
        thumbnailWrappedKey: thumbnail?.wrappedKey ?? null,
        thumbnailSize: thumbnail?.size ?? null,
        thumbnailSha256: thumbnail?.sha256 ?? null,
        thumbnailWidth: thumbnail?.image.width ?? null,
        thumbnailHeight: thumbnail?.image.height ?? null,
        previewId: preview?.id ?? null,
        previewWrappedKey: preview?.wrappedKey ?? null,
        previewSize: preview?.size ?? null,
        previewSha256: preview?.sha256 ?? null,
        previewContentType: preview?.image.contentType ?? null,
        processedAt: this.clock.now(),
      };
      if (await this.media.record(row)) return;
    } catch (err) {
      await this.discard(stored);
      throw err;
    }
    // The file was deleted meanwhile, or another run recorded first: nothing refers to these.
    await this.discard(stored);
  }

  private async put(image: EncodedImage, stored: StoredImage[]): Promise<StoredImage> {
    const id = newId();
    const written = await this.store.write(id, Readable.from(image.data));
    const entry = { id, image, ...written };
    stored.push(entry);
    return entry;
  }

  private async discard(stored: StoredImage[]): Promise<void> {
    for (const { id } of stored) await this.store.delete(id).catch(() => undefined);
  }
}
