import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FileRenditionRepository, FileRenditionRow } from '../../db/repositories/file-media.repository.js';
import type { RenditionStatus } from '../../db/schema.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { JOB } from '../../jobs/job-names.js';
import type { JobQueue } from '../../jobs/queue.js';
import { MediaToolMissingError, MediaUnprocessableError } from '../../media/errors.js';
import { withLoopbackUrl } from '../../media/loopback-source.js';
import { playbackPlan, probeVideo, type PlaybackPlan, type VideoProbe } from '../../media/video-probe.js';
import { renderVideo } from '../../media/video-transcode.js';
import { newId } from '../../security/ids.js';
import type { EncryptedStore } from '../../storage/blob-store.js';
import type { Clock } from '../clock.js';

export interface RenditionOptions {
  /** False (VIDEO_TRANSCODE=off): videos are neither probed nor converted; they play as stored. */
  enabled: boolean;
  /** null when not installed: videos are recorded as skipped. */
  ffmpegPath: string | null;
  ffprobePath: string | null;
  /** The rendition's shorter side at most (VIDEO_TRANSCODE_MAX_HEIGHT). */
  maxHeight: number;
  /** ffmpeg's threads (VIDEO_TRANSCODE_THREADS). */
  threads: number;
  /** Where ffmpeg writes before the rendition is stored; the system's temporary directory by default. */
  tempDir?: string;
}

export const RENDITION_CONTENT_TYPE = 'video/mp4';
/** A rendition that failed for reasons of storage is tried this often before it is given up. */
export const RENDITION_ATTEMPTS = 3;

type Verdict = Pick<FileRenditionRow, 'status' | 'method' | 'error'>;

function verdictOf(err: unknown): Verdict {
  if (err instanceof MediaUnprocessableError) return { status: 'failed', method: null, error: err.message.slice(0, 1000) };
  if (err instanceof MediaToolMissingError) return { status: 'skipped', method: null, error: err.message };
  throw err;
}

/** On a job's last attempt even a failure of storage is recorded: the player stops waiting. */
function finalVerdictOf(err: unknown): Verdict {
  if (err instanceof MediaUnprocessableError || err instanceof MediaToolMissingError) return verdictOf(err);
  const message = err instanceof Error ? err.message : String(err);
  return { status: 'failed', method: null, error: `Cannot convert the video: ${message}`.slice(0, 1000) };
}

/**
 * Gives videos a browser cannot play (HEVC, MKV, AVI, MPEG-2…) an H.264/AAC MP4 rendition. The
 * probe (ffprobe: container and codecs) decides, quickly, for every video; the rendition itself is
 * a separate low-priority job, one at a time. Originals are never changed. A corrupt or hostile
 * video is recorded as failed, never retried; only storage or database failures throw.
 */
export class RenditionService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly renditions: FileRenditionRepository,
    private readonly store: EncryptedStore,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    readonly options: RenditionOptions,
  ) {}

  /** `video.probe`: records whether the video plays as stored, and enqueues its rendition when not. */
  async probe(fileId: string): Promise<RenditionStatus | null> {
    const file = await this.uow.repos.files.findById(fileId);
    if (!file || file.mediaKind !== 'video' || !this.options.enabled) return null;
    const existing = await this.renditions.find(fileId);
    if (existing) return existing.status;
    const verdict = await this.decide(file).catch(verdictOf);
    const row: FileRenditionRow = {
      fileId: file.id,
      ownerId: file.ownerId,
      sourceKey: file.storageKey,
      ...verdict,
      blobKey: null,
      wrappedKey: null,
      size: null,
      sha256: null,
      contentType: null,
      processedAt: this.clock.now(),
    };
    const enqueue =
      verdict.status === 'pending'
        ? (trx: Parameters<JobQueue['enqueue']>[3]) =>
            this.queue.enqueue(
              JOB.videoRendition,
              { fileId },
              // One shared lane: renditions queue behind each other, in turn across accounts.
              { dedupeKey: `${JOB.videoRendition}:${fileId}`, lane: JOB.videoRendition, maxAttempts: RENDITION_ATTEMPTS },
              trx,
            )
        : undefined;
    await this.renditions.recordProbe(row, enqueue);
    return verdict.status;
  }

  private async decide(file: FileRow): Promise<Verdict> {
    const { ffprobePath, ffmpegPath } = this.options;
    if (!ffprobePath) throw new MediaToolMissingError('ffprobe');
    const probe = await withLoopbackUrl(file.size, this.opener(file), (url) => probeVideo(ffprobePath, url));
    const plan = playbackPlan(probe, file.contentType);
    if (plan.method === 'original') return { status: 'original', method: null, error: null };
    if (!ffmpegPath) throw new MediaToolMissingError('ffmpeg');
    return { status: 'pending', method: plan.method, error: null };
  }

  /**
   * `video.rendition`: makes and stores the rendition of a pending video. On the job's last attempt
   * a failure of storage is recorded as failed too, so the player stops waiting for it.
   */
  async render(fileId: string, lastAttempt: boolean): Promise<RenditionStatus | null> {
    const row = await this.renditions.find(fileId);
    if (row?.status !== 'pending') return row?.status ?? null;
    const file = await this.uow.repos.files.findById(fileId);
    // Gone, or replaced since the probe (the new content gets its own probe).
    if (!file || file.storageKey !== row.sourceKey) return null;
    const dir = await mkdtemp(path.join(this.options.tempDir ?? os.tmpdir(), 'nimbus-rendition-'));
    const key = newId();
    let written: Awaited<ReturnType<EncryptedStore['write']>> | null = null;
    try {
      let outcome: Parameters<FileRenditionRepository['complete']>[2];
      try {
        const output = path.join(dir, 'rendition.mp4');
        await this.make(file, output);
        written = await this.store.write(key, createReadStream(output));
        outcome = {
          status: 'ready',
          error: null,
          blobKey: key,
          wrappedKey: written.wrappedKey,
          size: written.size,
          sha256: written.sha256,
          contentType: RENDITION_CONTENT_TYPE,
          processedAt: this.clock.now(),
        };
      } catch (err) {
        const verdict = lastAttempt ? finalVerdictOf(err) : verdictOf(err);
        outcome = { ...nothingStored, status: verdict.status, error: verdict.error, processedAt: this.clock.now() };
      }
      if (await this.renditions.complete(fileId, row.sourceKey, outcome)) return outcome.status;
      // Deleted or replaced while it was being made: nothing refers to the blob.
      if (written) await this.store.delete(key).catch(() => undefined);
      return null;
    } catch (err) {
      if (written) await this.store.delete(key).catch(() => undefined);
      throw err;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async make(file: FileRow, output: string): Promise<void> {
    const { ffprobePath, ffmpegPath, maxHeight, threads } = this.options;
    if (!ffprobePath) throw new MediaToolMissingError('ffprobe');
    if (!ffmpegPath) throw new MediaToolMissingError('ffmpeg');
    await withLoopbackUrl(file.size, this.opener(file), async (url) => {
      const probe: VideoProbe = await probeVideo(ffprobePath, url);
      const planned = playbackPlan(probe, file.contentType);
      // Pending means the probe found it unplayable; a second reading never undoes that.
      const plan: PlaybackPlan = planned.method === 'original' ? { method: 'transcode' } : planned;
      await renderVideo(ffmpegPath, url, output, probe, plan, { maxHeight, threads, sourceBytes: file.size });
    });
  }

  private opener(file: FileRow) {
    return (range?: { start: number; end: number }) => this.store.read(file.storageKey, file.wrappedKey, file.size, range);
  }
}

const nothingStored = { blobKey: null, wrappedKey: null, size: null, sha256: null, contentType: null } as const;
