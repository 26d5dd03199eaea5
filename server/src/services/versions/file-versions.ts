import type { DriveRepositories } from '../../db/unit-of-work.js';
import type { FileRow } from '../../db/repositories/file.repository.js';
import type { FileVersionRow } from '../../db/repositories/file-version.repository.js';
import { DEFAULT_VERSIONS, type VersionsConfig } from '../../config.js';
import { mediaKindOf } from '../../media/mime.js';
import { newId } from '../../security/ids.js';
import { versionsToThin, type TimedVersion } from './retention.js';

/** Who stores a content: the account (owner or editor) and the app password it came through. */
export interface ContentAuthor {
  accountId: string;
  /** The app password's name; null from the web app or the API. */
  via: string | null;
}

/** A content a file can take: new bytes just stored, or a kept version. */
export interface Content {
  size: number;
  contentType: string;
  sha256: string;
  crc32: number | null;
  storageKey: string;
  wrappedKey: string;
}

export interface SwapResult {
  file: FileRow;
  /** Blob keys no row needs any more (old thumbnail and preview, versions retention let go). */
  released: string[];
}

/**
 * The rules that keep a file's past, applied inside the transaction that changes its content, so
 * a content is never without a row that owns its blob: a replaced content becomes a version row in
 * the same statement group that gives the file its new content.
 */
export class FileVersions {
  constructor(private readonly config: VersionsConfig = DEFAULT_VERSIONS) {}

  /**
   * Gives `file` the content `next` at `now`. The old content is kept as a version (or released
   * when versions are off); then retention's per-file cap and the account's share applies.
   * The caller has locked the owner's tree and checks the quota. When `next` is one of the file's
   * versions, its row goes first (the blob is the file's now, and retention must not release it),
   * and the time it was the file's content is kept as a period, so that time can still be
   * restored (see RestoreAsOfService).
   */
  async swapContent(r: DriveRepositories, file: FileRow, next: Content, author: ContentAuthor, now: number): Promise<SwapResult> {
    const kept = await r.versions.listForFile(file.id);
    const restored = kept.find((v) => v.storageKey === next.storageKey);
    if (restored) {
      await r.versions.insertPeriod({
        id: newId(),
        fileId: file.id,
        storageKey: restored.storageKey,
        sha256: restored.sha256,
        size: restored.size,
        fromAt: restored.uploadedAt,
        untilAt: restored.replacedAt,
      });
      await r.versions.detach(restored.id);
    }
    const updated: FileRow = {
      ...file,
      size: next.size,
      contentType: next.contentType,
      mediaKind: mediaKindOf(next.contentType),
      sha256: next.sha256,
      crc32: next.crc32,
      storageKey: next.storageKey,
      wrappedKey: next.wrappedKey,
      uploadedAt: now,
      updatedAt: now,
      thumbnailId: null,
      contentAuthorId: author.accountId,
      contentVia: author.via,
    };
    const released = await r.files.replaceContent(updated);
    if (this.config.maxPerFile === 0) {
      released.push(file.storageKey);
      return { file: updated, released };
    }
    const replaced = versionOf(file, now);
    await r.versions.insert(replaced);
    const versions = [replaced, ...kept.filter((v) => v !== restored)];
    released.push(...(await this.applyFileCap(r, file.id, now, versions)));
    return { file: updated, released };
  }

  /**
   * Retention for one file at `now`: the time rules and the per-file cap. Answers released blob
   * keys. `versions`: the file's versions when the caller has just read them.
   */
  async applyFileCap(r: DriveRepositories, fileId: string, now: number, versions?: readonly TimedVersion[]): Promise<string[]> {
    versions ??= await r.versions.listForFile(fileId);
    const gone = versionsToThin(versions, now, this.config.maxPerFile);
    return gone.length === 0 ? [] : r.versions.delete(gone);
  }

  /**
   * Lets the owner's oldest versions go until versions take no more than their share of `quota`
   * and `extraBytes` more fit under it. Answers the released blob keys; whether the bytes then fit
   * is the caller's to check. `exceptUpload`: the resumable upload whose reservation becomes the
   * new bytes (not counted twice).
   */
  async makeRoom(
    r: DriveRepositories,
    ownerId: string,
    quota: number | null,
    extraBytes: number,
    exceptUpload?: string,
  ): Promise<string[]> {
    if (quota === null) return [];
    let versionBytes = await r.versions.bytesOf(ownerId);
    if (versionBytes === 0) return [];
    const charged = await r.files.bytesCharged(ownerId, exceptUpload);
    let overQuota = charged + extraBytes - quota;
    let overShare = versionBytes - Math.floor(quota * this.config.maxShareOfQuota);
    const released: string[] = [];
    while ((overQuota > 0 || overShare > 0) && versionBytes > 0) {
      const oldest = await r.versions.oldestOf(ownerId, 100);
      if (oldest.length === 0) break;
      const take: string[] = [];
      for (const v of oldest) {
        if (overQuota <= 0 && overShare <= 0) break;
        take.push(v.id);
        overQuota -= v.size;
        overShare -= v.size;
        versionBytes -= v.size;
      }
      released.push(...(await r.versions.delete(take)));
    }
    return released;
  }
}

function versionOf(file: FileRow, replacedAt: number): FileVersionRow {
  return {
    id: newId(),
    fileId: file.id,
    ownerId: file.ownerId,
    size: file.size,
    contentType: file.contentType,
    sha256: file.sha256,
    crc32: file.crc32,
    storageKey: file.storageKey,
    wrappedKey: file.wrappedKey,
    uploadedAt: file.uploadedAt,
    replacedAt,
    authorId: file.contentAuthorId,
    via: file.contentVia,
  };
}
