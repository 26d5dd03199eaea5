import { Readable } from 'node:stream';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FileMotionRow, LivePhotoRepository, PhotoMotionLink } from '../../db/repositories/live-photo.repository.js';
import type { MotionStatus } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { NotFoundError } from '../../domain/errors.js';
import { MediaToolMissingError, MediaUnprocessableError } from '../../media/errors.js';
import { heavyWork } from '../../media/limiter.js';
import { MOTION_PHOTO_TYPES, mayHaveMotion, type ClipSpan, type PhotoMotion } from '../../media/live-photo-metadata.js';
import { checkClip, videoContentId } from '../../media/live-photo-video.js';
import type { PhotoMotionTask } from '../../media/live-photo.worker.js';
import { withLoopbackUrl, type OpenRange } from '../../media/loopback-source.js';
import { newId } from '../../security/ids.js';
import type { EncryptedStore } from '../../storage/blob-store.js';
import { WorkerTimeoutError, type WorkerPool } from '../../workers/pool.js';
import type { Clock } from '../clock.js';
import type { StoredAsset } from '../downloads/stored-asset.js';

export interface LivePhotoOptions {
  /** ffmpeg, to read a MOV's identifier and check a motion photo's clip; null when there is none. */
  ffmpegPath: string | null;
  /** Larger photos are not read (the whole photo is held in memory while its metadata is read). */
  maxPhotoBytes?: number;
  /** A longer clip is refused: phones write a few seconds, a few MB. */
  maxClipBytes?: number;
  /** How long reading one photo's metadata may take on its thread. */
  readTimeoutMs?: number;
}

const MAX_PHOTO_BYTES = 128 * 1024 * 1024;
const MAX_CLIP_BYTES = 100 * 1024 * 1024;
const READ_TIMEOUT_MS = 20_000;
/** QuickTime is what iPhones write; some exports of a Live Photo carry the MOV as MP4. */
const LIVE_VIDEO_TYPES = new Set(['video/quicktime', 'video/mp4']);
/** Every content type the motion job reads. */
export const MOTION_CONTENT_TYPES = [...MOTION_PHOTO_TYPES, ...LIVE_VIDEO_TYPES];

type Outcome =
  | { status: 'ready' | 'none'; contentId: string | null; clip: { bytes: Buffer } | null }
  | { status: 'skipped' | 'failed'; contentId: string | null; error: string };

export type { PhotoMotionLink } from '../../db/repositories/live-photo.repository.js';

/** Reads photos' metadata on other threads (see live-photo.worker.ts). */
export type PhotoMotionReader = Pick<WorkerPool, 'run' | 'close'>;

function notFound(): NotFoundError {
  return new NotFoundError('FILE_NOT_FOUND', 'File not found');
}

/**
 * Live Photos and motion photos. The motion job reads a photo's Apple content identifier and the
 * clip an Android motion photo appends (stored once as its own encrypted blob), or a MOV's content
 * identifier, records it, and pairs a still with its MOV of the same owner, whichever came first.
 * A malformed file is recorded as failed and never retried; only storage or database errors throw.
 */
export class LivePhotoService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: LivePhotoRepository,
    private readonly store: EncryptedStore,
    private readonly clock: Clock,
    private readonly reader: PhotoMotionReader,
    private readonly options: LivePhotoOptions,
  ) {}

  /** Whether the motion job has anything to read in a file of this type. */
  static applies(file: Pick<FileRow, 'mediaKind' | 'contentType'>): boolean {
    if (file.mediaKind === 'photo') return mayHaveMotion(file.contentType);
    return file.mediaKind === 'video' && LIVE_VIDEO_TYPES.has(file.contentType);
  }

  async analyze(fileId: string): Promise<MotionStatus | null> {
    const file = await this.uow.repos.files.findById(fileId);
    if (!file || !LivePhotoService.applies(file)) return null;
    let row = await this.repo.findMotion(fileId);
    if (!row) {
      const outcome = await heavyWork(() => this.make(file)).catch((err: unknown): Outcome => {
        if (err instanceof MediaUnprocessableError) return { status: 'failed', contentId: null, error: err.message };
        if (err instanceof MediaToolMissingError) return { status: 'skipped', contentId: null, error: err.message };
        throw err;
      });
      const saved = await this.save(file, outcome);
      if (!saved) return null;
      row = saved;
    }
    // Also when the row was there: a run stopped between recording and pairing pairs now.
    if (row.contentId && file.mediaKind) await this.repo.pair(file.id, file.ownerId, file.mediaKind, row.contentId, this.clock.now());
    return row.status;
  }

  /** The gallery's view of these photos' motion (ids of other owners' files are ignored). */
  motionOf(ownerId: string, photoIds: string[]): Promise<Map<string, PhotoMotionLink>> {
    return this.repo.motionOf(ownerId, photoIds);
  }

  /** The clip cut out of an owner's motion photo. */
  async clip(ownerId: string, fileId: string): Promise<StoredAsset> {
    const file = await this.uow.repos.files.findOwned(ownerId, fileId);
    const clip = file ? await this.repo.clipOf(file.id) : undefined;
    if (!file || !clip) throw notFound();
    const { clipId, clipWrappedKey, clipSize } = clip;
    return {
      filename: `${file.filename.replace(/\.[^.]*$/, '')}.mp4`,
      size: clipSize,
      contentType: 'video/mp4',
      sha256: clip.clipSha256,
      modifiedAt: clip.processedAt,
      open: (range) => this.store.read(clipId, clipWrappedKey, clipSize, range),
    };
  }

  async close(): Promise<void> {
    await this.reader.close();
  }

  private open(file: FileRow): OpenRange {
    return (range) => this.store.read(file.storageKey, file.wrappedKey, file.size, range);
  }

  private async make(file: FileRow): Promise<Outcome> {
    if (file.mediaKind === 'video') {
      if (!this.options.ffmpegPath) throw new MediaToolMissingError('ffmpeg');
      const ffmpeg = this.options.ffmpegPath;
      const contentId = await withLoopbackUrl(file.size, this.open(file), (url) => videoContentId(ffmpeg, url));
      return { status: contentId ? 'ready' : 'none', contentId, clip: null };
    }
    if (file.size > (this.options.maxPhotoBytes ?? MAX_PHOTO_BYTES))
      return { status: 'skipped', contentId: null, error: 'Photo is too large to read' };
    const motion = await this.readPhoto(file);
    if (motion.clipError) return { status: 'failed', contentId: motion.contentId, error: motion.clipError };
    const clip = motion.clip ? await this.cutClip(file, motion.clip) : null;
    return { status: motion.contentId || clip ? 'ready' : 'none', contentId: motion.contentId, clip };
  }

  private async readPhoto(file: FileRow): Promise<PhotoMotion> {
    const data = await this.readRange(this.open(file), file.size);
    const task: PhotoMotionTask = { data, contentType: file.contentType };
    const timeoutMs = this.options.readTimeoutMs ?? READ_TIMEOUT_MS;
    try {
      return await this.reader.run<PhotoMotion>(task, { transfer: [data.buffer as ArrayBuffer], timeoutMs });
    } catch (err) {
      if (err instanceof WorkerTimeoutError) throw new MediaUnprocessableError('Reading the photo took too long', { cause: err });
      // The thread ran out of memory or crashed on this photo: its fault, not the server's.
      if (
        err instanceof Error &&
        /ERR_WORKER_OUT_OF_MEMORY|terminated/i.test(`${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`)
      )
        throw new MediaUnprocessableError('The photo could not be read', { cause: err });
      throw err;
    }
  }

  /** The motion photo's clip, once it is known to be a video (an MP4 whose first frame decodes). */
  private async cutClip(file: FileRow, span: ClipSpan): Promise<{ bytes: Buffer }> {
    const length = span.end - span.start;
    if (length > (this.options.maxClipBytes ?? MAX_CLIP_BYTES)) throw new MediaUnprocessableError('The motion photo video is too large');
    const bytes = Buffer.from(await this.readRange(this.open(file), length, { start: span.start, end: span.end - 1 }));
    // ISO base media files begin with a box naming their brand.
    if (bytes.length < 12 || bytes.toString('latin1', 4, 8) !== 'ftyp')
      throw new MediaUnprocessableError('The motion photo video is not an MP4');
    if (this.options.ffmpegPath) {
      const ffmpeg = this.options.ffmpegPath;
      const openClip: OpenRange = (range) => Promise.resolve(Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]));
      await withLoopbackUrl(bytes.length, openClip, (url) => checkClip(ffmpeg, url));
    }
    return { bytes };
  }

  /** Stored bytes into one fresh buffer of their own (transferable to a thread). */
  private async readRange(open: OpenRange, size: number, range?: { start: number; end: number }): Promise<Uint8Array> {
    const data = new Uint8Array(new ArrayBuffer(size));
    let at = 0;
    for await (const chunk of await open(range)) {
      const piece = chunk as Buffer;
      if (at + piece.length > size) throw new Error('Stored content is longer than recorded');
      data.set(piece, at);
      at += piece.length;
    }
    if (at !== size) throw new Error('Stored content is shorter than recorded');
    return data;
  }

  private async save(file: FileRow, outcome: Outcome): Promise<FileMotionRow | null> {
    let clip: { id: string; size: number; sha256: string; wrappedKey: string } | null = null;
    try {
      if (outcome.status === 'ready' && outcome.clip) {
        const id = newId();
        clip = { id, ...(await this.store.write(id, Readable.from([outcome.clip.bytes]))) };
      }
      const row: FileMotionRow = {
        fileId: file.id,
        ownerId: file.ownerId,
        status: outcome.status,
        error: 'error' in outcome ? outcome.error.slice(0, 1000) : null,
        contentId: outcome.contentId,
        clipId: clip?.id ?? null,
        clipWrappedKey: clip?.wrappedKey ?? null,
        clipSize: clip?.size ?? null,
        clipSha256: clip?.sha256 ?? null,
        processedAt: this.clock.now(),
      };
      if (await this.repo.record(row, file.storageKey)) return row;
    } catch (err) {
      if (clip) await this.store.delete(clip.id).catch(() => undefined);
      throw err;
    }
    // Deleted or replaced meanwhile, or recorded by another run: nothing refers to this clip.
    if (clip) await this.store.delete(clip.id).catch(() => undefined);
    return null;
  }
}
