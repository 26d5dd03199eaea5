import {
  KEY_PAGE,
  type FileBlobRow,
  type IntegrityRepository,
  type MediaBlobRow,
  type MotionClipBlobRow,
  type RenditionBlobRow,
  type VersionBlobRow,
} from '../db/repositories/integrity.repository.js';
import type { Clock } from '../services/clock.js';
import { isListable, type BlobStore, type StoredObject } from '../storage/blob-store.js';
import type { BlobVerdict, BlobVerifier } from './blob-verifier.js';
import { record, type BlobRole, type Finding, type Tally } from './findings.js';
import type { RateLimiter } from './rate-limiter.js';

/** One run's settings and running totals, shared by its steps. */
export interface StepContext {
  tally: Tally;
  limiter: RateLimiter;
  /** Remove what is provably garbage: old stray blobs and thumbnail rows of gone files. */
  repair: boolean;
  /** A blob no row refers to is left alone until it is this old: it may be an upload in flight. */
  graceMs: number;
  signal?: AbortSignal;
  onFinding?: (finding: Finding) => void;
  /** Keys already queued for deletion, loaded once per run. */
  pendingDelete?: Set<string>;
}

/** Where a step stopped: the last item it finished, and whether its phase has nothing left. */
export interface StepResult {
  cursor: string | null;
  done: boolean;
}

/** Resumable uploads store under `tus/<key>` or `tus/<key>-<piece>`; other namespaces are not ours. */
const TUS_PREFIX = 'tus/';

/**
 * The checks themselves, each a bounded step that resumes from a cursor, so the one-off check and
 * the background scrub walk the same way. A problem is re-read before it is reported, so a file
 * deleted or replaced while it was being read is not taken for damage.
 */
export class IntegrityInspector {
  constructor(
    private readonly repo: IntegrityRepository,
    private readonly store: BlobStore,
    private readonly verifier: BlobVerifier,
    private readonly clock: Clock,
  ) {}

  get canList(): boolean {
    return isListable(this.store);
  }

  /** Verifies the blobs (content, thumbnail, preview) of up to `limit` files after `after`, in id order. */
  async verifyFiles(after: string | null, limit: number, ctx: StepContext): Promise<StepResult> {
    const files = await this.repo.filesAfter(after, limit);
    const media = new Map((await this.repo.mediaOf(files.map((f) => f.id))).map((m) => [m.fileId, m]));
    const renditions = new Map((await this.repo.renditionsOf(files.map((f) => f.id))).map((r) => [r.fileId, r]));
    const clips = new Map((await this.repo.motionClipsOf(files.map((f) => f.id))).map((c) => [c.fileId, c]));
    let cursor = after;
    try {
      for (const file of files) {
        ctx.signal?.throwIfAborted();
        await this.verifyFile(file, media.get(file.id), ctx);
        const rendition = renditions.get(file.id);
        if (rendition) await this.verifyRendition(rendition, ctx);
        const clip = clips.get(file.id);
        if (clip) await this.verifyMotionClip(clip, ctx);
        cursor = file.id;
      }
    } catch (err) {
      // Interrupted: the files finished so far stay done, the one in progress is read again on resume.
      if (ctx.signal?.aborted) return { cursor, done: false };
      throw err;
    }
    return { cursor, done: files.length < limit };
  }

  /** Verifies the blobs of up to `limit` versions (earlier contents of files) after `after`, in id order. */
  async verifyVersions(after: string | null, limit: number, ctx: StepContext): Promise<StepResult> {
    const versions = await this.repo.versionsAfter(after, limit);
    let cursor = after;
    try {
      for (const version of versions) {
        ctx.signal?.throwIfAborted();
        await this.verifyVersion(version, ctx);
        cursor = version.id;
      }
    } catch (err) {
      if (ctx.signal?.aborted) return { cursor, done: false };
      throw err;
    }
    return { cursor, done: versions.length < limit };
  }

  /** Thumbnail rows whose file is gone; with repair, the row and its blobs are removed. */
  async checkOrphanMedia(after: string | null, limit: number, ctx: StepContext): Promise<StepResult> {
    const rows = await this.repo.orphanMediaAfter(after, limit);
    for (const row of rows) {
      const keys = [row.thumbnailId, row.previewId].filter((k): k is string => k !== null);
      const repaired = ctx.repair && (await this.repo.deleteOrphanMedia(row.fileId));
      if (repaired) for (const key of keys) await this.store.delete(key);
      this.report(ctx, {
        kind: 'orphan-thumbnail',
        role: 'thumbnail',
        key: keys[0] ?? null,
        fileId: row.fileId,
        detail: `thumbnail row of a file that no longer exists (${keys.length} blob${keys.length === 1 ? '' : 's'})`,
        repaired,
      });
    }
    return { cursor: rows.at(-1)?.fileId ?? after, done: rows.length < limit };
  }

  /** Lists up to `limit` stored blobs after `after` and reports those no row refers to. */
  async findStrays(after: string | null, limit: number, ctx: StepContext): Promise<StepResult> {
    if (!isListable(this.store)) return { cursor: null, done: true };
    const batch: StoredObject[] = [];
    let done = true;
    for await (const object of this.store.list(after === null ? {} : { after })) {
      batch.push(object);
      if (batch.length >= limit) {
        done = false;
        break;
      }
    }
    ctx.pendingDelete ??= await this.repo.keysPendingDelete();
    for (let i = 0; i < batch.length; i += KEY_PAGE) {
      // Interrupted: the cursor stays at the page done last, so no listed blob is counted twice.
      if (ctx.signal?.aborted) return { cursor: i === 0 ? after : (batch[i - 1]?.key ?? after), done: false };
      await this.classify(batch.slice(i, i + KEY_PAGE), ctx);
    }
    return { cursor: batch.at(-1)?.key ?? after, done };
  }

  private async classify(objects: StoredObject[], ctx: StepContext): Promise<void> {
    ctx.tally.counts.blobsListed += objects.length;
    const ours = objects.filter((o) => {
      const known = candidatesOf(o.key) !== null;
      if (!known) ctx.tally.counts.foreignBlobs += 1;
      return known;
    });
    const referenced = await this.repo.referencedKeys(ours.flatMap((o) => candidatesOf(o.key) ?? []));
    const now = this.clock.now();
    for (const object of ours) {
      if ((candidatesOf(object.key) ?? []).some((k) => referenced.has(k)) || ctx.pendingDelete?.has(object.key)) continue;
      const ageMs = now - object.modifiedAt;
      if (ageMs < ctx.graceMs) {
        this.report(ctx, stray('recent-stray-blob', object, `no row refers to it yet; ${formatAge(ageMs)} old, within the grace period`));
        continue;
      }
      const repaired = ctx.repair && (await this.removeIfStillStray(object.key));
      this.report(ctx, { ...stray('stray-blob', object, `no row refers to it; ${formatAge(ageMs)} old`), repaired });
    }
  }

  /** Looks the key up once more right before removing it: a row committed since the listing wins. */
  private async removeIfStillStray(key: string): Promise<boolean> {
    const candidates = candidatesOf(key) ?? [];
    if ((await this.repo.referencedKeys(candidates)).size > 0) return false;
    if ((await this.repo.keysPendingDelete()).has(key)) return false;
    await this.store.delete(key);
    return true;
  }

  private async verifyFile(file: FileBlobRow, media: MediaBlobRow | undefined, ctx: StepContext): Promise<void> {
    const { counts } = ctx.tally;
    const verdict = await this.verifier.verify(file.storageKey, file.wrappedKey, file.size, ctx.limiter, ctx.signal);
    counts.files += 1;
    counts.bytesVerified += 'storedBytes' in verdict ? verdict.storedBytes : 0;
    // A file stored before uploads kept a CRC-32 gets the one of the bytes just authenticated, so its
    // next zip need not compute it. Only when repairing: a plain check writes nothing.
    if (verdict.status === 'ok' && file.crc32 === null && ctx.repair) await this.repo.keepCrc32(file.id, file.storageKey, verdict.crc32);
    if (!isSound(verdict, file) && (await this.repo.findFile(file.id))?.storageKey === file.storageKey) {
      for (const finding of findingsOf(verdict, 'file', file.storageKey, file.id, file.size)) this.report(ctx, finding);
    }
    if (!media) return;
    const assets = [
      { role: 'thumbnail' as const, key: media.thumbnailId, wrappedKey: media.thumbnailWrappedKey, size: media.thumbnailSize },
      { role: 'preview' as const, key: media.previewId, wrappedKey: media.previewWrappedKey, size: media.previewSize },
    ];
    for (const asset of assets) {
      if (asset.key === null || asset.wrappedKey === null || asset.size === null) continue;
      const result = await this.verifier.verify(asset.key, asset.wrappedKey, asset.size, ctx.limiter, ctx.signal);
      counts.thumbnails += 1;
      counts.bytesVerified += 'storedBytes' in result ? result.storedBytes : 0;
      if (result.status === 'ok') continue;
      const [current] = await this.repo.mediaOf([file.id]);
      if (current?.thumbnailId !== asset.key && current?.previewId !== asset.key) continue;
      for (const finding of findingsOf(result, asset.role, asset.key, file.id, asset.size)) this.report(ctx, finding);
    }
  }

  /** A video's playable rendition: whole, and the content its row records (unless replaced or deleted meanwhile). */
  private async verifyRendition(rendition: RenditionBlobRow, ctx: StepContext): Promise<void> {
    const { counts } = ctx.tally;
    const verdict = await this.verifier.verify(rendition.blobKey, rendition.wrappedKey, rendition.size, ctx.limiter, ctx.signal);
    counts.renditions = (counts.renditions ?? 0) + 1;
    counts.bytesVerified += 'storedBytes' in verdict ? verdict.storedBytes : 0;
    if (isSound(verdict, rendition)) return;
    const [current] = await this.repo.renditionsOf([rendition.fileId]);
    if (current?.blobKey !== rendition.blobKey) return;
    for (const finding of findingsOf(verdict, 'rendition', rendition.blobKey, rendition.fileId, rendition.size)) this.report(ctx, finding);
  }

  /** A motion photo's clip: whole, and the content its row records (unless replaced or deleted meanwhile). */
  private async verifyMotionClip(clip: MotionClipBlobRow, ctx: StepContext): Promise<void> {
    const { counts } = ctx.tally;
    const verdict = await this.verifier.verify(clip.clipId, clip.wrappedKey, clip.size, ctx.limiter, ctx.signal);
    counts.motionClips = (counts.motionClips ?? 0) + 1;
    counts.bytesVerified += 'storedBytes' in verdict ? verdict.storedBytes : 0;
    if (isSound(verdict, clip)) return;
    const [current] = await this.repo.motionClipsOf([clip.fileId]);
    if (current?.clipId !== clip.clipId) return;
    for (const finding of findingsOf(verdict, 'motion-clip', clip.clipId, clip.fileId, clip.size)) this.report(ctx, finding);
  }

  private async verifyVersion(version: VersionBlobRow, ctx: StepContext): Promise<void> {
    const { counts } = ctx.tally;
    const verdict = await this.verifier.verify(version.storageKey, version.wrappedKey, version.size, ctx.limiter, ctx.signal);
    counts.versions = (counts.versions ?? 0) + 1;
    counts.bytesVerified += 'storedBytes' in verdict ? verdict.storedBytes : 0;
    // Deleted (its blob released) or restored meanwhile: not damage.
    if (isSound(verdict, version) || (await this.repo.findVersion(version.id))?.storageKey !== version.storageKey) return;
    for (const finding of findingsOf(verdict, 'version', version.storageKey, version.fileId, version.size)) {
      this.report(ctx, { ...finding, versionId: version.id, detail: `version ${version.id}: ${finding.detail}` });
    }
  }

  private report(ctx: StepContext, finding: Finding): void {
    record(ctx.tally, finding);
    ctx.onFinding?.(finding);
  }
}

/** The keys a row could name this blob by, or null for a namespace Nimbus does not write. */
function candidatesOf(key: string): string[] | null {
  if (!key.includes('/')) return [key];
  if (!key.startsWith(TUS_PREFIX)) return null;
  const rest = key.slice(TUS_PREFIX.length);
  // Both readings of a trailing "-<n>" (a piece number, or part of the key) protect the upload.
  const base = rest.replace(/-\d+$/, '');
  return base === rest ? [rest] : [rest, base];
}

/** Whole, and the content its row records. */
function isSound(verdict: BlobVerdict, row: { sha256: string }): boolean {
  return verdict.status === 'ok' && verdict.sha256 === row.sha256;
}

function findingsOf(verdict: BlobVerdict, role: BlobRole, key: string, fileId: string, rowSize: number): Finding[] {
  const base = { role, key, fileId, repaired: false };
  switch (verdict.status) {
    case 'ok':
      return [
        {
          ...base,
          kind: 'hash-mismatch',
          detail: `the ${role}'s stored bytes are whole but not the content its row records (SHA-256 ${verdict.sha256})`,
        },
      ];
    case 'missing':
      return [{ ...base, kind: 'missing-blob', detail: `the ${role} row has no stored blob` }];
    case 'bad-key':
      return [{ ...base, kind: 'bad-key', detail: `the ${role}'s data key does not open with this ENCRYPTION_KEY` }];
    case 'unreadable':
      return [{ ...base, kind: 'unreadable-blob', detail: `the store did not serve the ${role}'s blob: ${verdict.reason}` }];
    case 'corrupt':
      return [{ ...base, kind: 'corrupt-blob', detail: `the ${role}'s stored bytes fail authentication (altered or truncated)` }];
    case 'size-mismatch': {
      const stored = verdict.storedSize === null ? `${verdict.storedBytes} stored bytes that fit no size` : `${verdict.storedSize} bytes`;
      const mismatch: Finding = {
        ...base,
        kind: 'size-mismatch',
        detail: `the row says ${rowSize} bytes, the stored blob holds ${stored}`,
      };
      if (verdict.isAuthentic) return [mismatch];
      return [mismatch, { ...base, kind: 'corrupt-blob', detail: `the ${role}'s stored bytes fail authentication (altered or truncated)` }];
    }
  }
}

function stray(kind: 'stray-blob' | 'recent-stray-blob', object: StoredObject, detail: string): Finding {
  return { kind, role: 'unreferenced', key: object.key, fileId: null, detail: `${detail}, ${object.size} bytes`, repaired: false };
}

function formatAge(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}
