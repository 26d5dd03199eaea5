import { sql } from 'kysely';
import type { Db, Dialect } from '../database.js';
import type { FileMotionTable, MediaKind } from '../schema.js';

export type FileMotionRow = FileMotionTable;

/** What the gallery shows of a photo's motion: its Live Photo MOV, or the clip of a motion photo. */
export type PhotoMotionLink = { videoId: string } | { clip: true };

/** A motion clip blob and what a reader needs to open it. */
export interface StoredClip {
  fileId: string;
  ownerId: string;
  clipId: string;
  clipWrappedKey: string;
  clipSize: number;
  clipSha256: string;
  processedAt: number;
}

/** Live Photo identifiers, motion-photo clips and the pairs of a still with its MOV. */
export class LivePhotoRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /** Files of these types the motion job never read and has no pending job for (stored before it existed, or lost). */
  async unread(contentTypes: string[], limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('file')
      .leftJoin('fileMotion', 'fileMotion.fileId', 'file.id')
      .select('file.id')
      .where('file.mediaKind', 'is not', null)
      .where('file.contentType', 'in', contentTypes)
      .where('fileMotion.fileId', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('job')
              .select('job.id')
              .where('job.dedupeKey', '=', sql<string>`${'file.motion:'} || ${sql.ref('file.id')}`),
          ),
        ),
      )
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  findMotion(fileId: string): Promise<FileMotionRow | undefined> {
    return this.db.selectFrom('fileMotion').selectAll().where('fileId', '=', fileId).executeTakeFirst();
  }

  /**
   * Records the outcome, only while the file still holds the content that was read (`storageKey`):
   * false when the file is gone, was replaced meanwhile, or another run recorded first; the caller
   * then deletes the clip it wrote.
   */
  async record(row: FileMotionRow, storageKey: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      let file = trx.selectFrom('file').select('id').where('id', '=', row.fileId).where('storageKey', '=', storageKey);
      if (this.dialect === 'postgres') file = file.forUpdate();
      if (!(await file.executeTakeFirst())) return false;
      const inserted = await trx
        .insertInto('fileMotion')
        .values(row)
        .onConflict((oc) => oc.column('fileId').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return false;
      // A clip changes what the owner's gallery shows.
      if (row.clipId) await bumpDriveVersion(trx, row.ownerId);
      return true;
    });
  }

  /**
   * Pairs the file (a still or a MOV with a content identifier) with its counterpart of the same
   * owner, both active and neither paired yet; the counterpart in the same folder first, then the
   * newest. Run after the file's own row committed, so of two halves recorded at once at least one
   * sees the other; the unique keys let only one pair stand. Answers the counterpart's id when paired.
   */
  async pair(fileId: string, ownerId: string, kind: MediaKind, contentId: string, now: number): Promise<string | null> {
    const counterpart: MediaKind = kind === 'photo' ? 'video' : 'photo';
    const self = await this.db
      .selectFrom('file')
      .select(['folderId', 'trashedAt'])
      .where('id', '=', fileId)
      .where('ownerId', '=', ownerId)
      .executeTakeFirst();
    if (!self || self.trashedAt !== null) return null;
    const candidates = await this.db
      .selectFrom('fileMotion')
      .innerJoin('file', 'file.id', 'fileMotion.fileId')
      .select(['file.id', 'file.folderId', 'file.uploadedAt'])
      .where('fileMotion.ownerId', '=', ownerId)
      .where('file.ownerId', '=', ownerId)
      .where('fileMotion.contentId', '=', contentId)
      .where('file.mediaKind', '=', counterpart)
      .where('file.trashedAt', 'is', null)
      .where('file.id', '!=', fileId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('livePhoto')
              .select('livePhoto.photoFileId')
              .where((eb) =>
                eb.or([eb('livePhoto.photoFileId', '=', eb.ref('file.id')), eb('livePhoto.videoFileId', '=', eb.ref('file.id'))]),
              ),
          ),
        ),
      )
      .orderBy('file.uploadedAt', 'desc')
      .orderBy('file.id')
      .limit(20)
      .execute();
    const best = candidates.find((c) => c.folderId === self.folderId) ?? candidates[0];
    if (!best) return null;
    const [photoFileId, videoFileId] = kind === 'photo' ? [fileId, best.id] : [best.id, fileId];
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('livePhoto')
        .values({ photoFileId, videoFileId, ownerId, contentId, pairedAt: now })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return null;
      await bumpDriveVersion(trx, ownerId);
      return best.id;
    });
  }

  /** The motion of each photo among `photoIds` that has one: its active paired MOV, else its clip. */
  async motionOf(ownerId: string, photoIds: string[]): Promise<Map<string, PhotoMotionLink>> {
    const links = new Map<string, PhotoMotionLink>();
    if (photoIds.length === 0) return links;
    const clips = await this.db
      .selectFrom('fileMotion')
      .select('fileId')
      .where('ownerId', '=', ownerId)
      .where('fileId', 'in', photoIds)
      .where('clipId', 'is not', null)
      .execute();
    for (const { fileId } of clips) links.set(fileId, { clip: true });
    const pairs = await this.db
      .selectFrom('livePhoto')
      .innerJoin('file', 'file.id', 'livePhoto.videoFileId')
      .select(['livePhoto.photoFileId', 'livePhoto.videoFileId'])
      .where('livePhoto.ownerId', '=', ownerId)
      .where('livePhoto.photoFileId', 'in', photoIds)
      .where('file.trashedAt', 'is', null)
      .execute();
    for (const pair of pairs) links.set(pair.photoFileId, { videoId: pair.videoFileId });
    return links;
  }

  /** The pair a file is part of, either half. */
  pairOf(fileId: string): Promise<{ photoFileId: string; videoFileId: string } | undefined> {
    return this.db
      .selectFrom('livePhoto')
      .select(['photoFileId', 'videoFileId'])
      .where((eb) => eb.or([eb('photoFileId', '=', fileId), eb('videoFileId', '=', fileId)]))
      .executeTakeFirst();
  }

  async clipOf(fileId: string): Promise<StoredClip | undefined> {
    const row = await this.db
      .selectFrom('fileMotion')
      .select(['fileId', 'ownerId', 'clipId', 'clipWrappedKey', 'clipSize', 'clipSha256', 'processedAt'])
      .where('fileId', '=', fileId)
      .executeTakeFirst();
    if (!row?.clipId || row.clipWrappedKey === null || row.clipSize === null || row.clipSha256 === null) return undefined;
    return {
      fileId: row.fileId,
      ownerId: row.ownerId,
      clipId: row.clipId,
      clipWrappedKey: row.clipWrappedKey,
      clipSize: Number(row.clipSize),
      clipSha256: row.clipSha256,
      processedAt: Number(row.processedAt),
    };
  }
}

/** List answers are kept per drive version; pairs and clips change what the gallery shows. */
async function bumpDriveVersion(db: Db, ownerId: string): Promise<void> {
  await sql`INSERT INTO drive_version (account_id, version) VALUES (${ownerId}, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = drive_version.version + 1`.execute(db);
}
