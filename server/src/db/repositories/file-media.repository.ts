import { sql } from 'kysely';
import type { Db, Dialect } from '../database.js';
import type { FileMediaTable, FileRenditionTable } from '../schema.js';

export type FileMediaRow = FileMediaTable;

/** Derived media assets of files: what the thumbnail job stored, and its outcome. */
export class FileMediaRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  find(fileId: string): Promise<FileMediaRow | undefined> {
    return this.db.selectFrom('fileMedia').selectAll().where('fileId', '=', fileId).executeTakeFirst();
  }

  /** Photos, videos, PDFs and audio files the thumbnail job never processed and has no pending job for. */
  async unprocessedMedia(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('file')
      .leftJoin('fileMedia', 'fileMedia.fileId', 'file.id')
      .select('file.id')
      // PDFs and audio have their first page or cover art as thumbnail (see DriveEvents.fileStored).
      .where((eb) =>
        eb.or([
          eb('file.mediaKind', 'is not', null),
          eb('file.contentType', '=', 'application/pdf'),
          eb('file.contentType', 'like', 'audio/%'),
        ]),
      )
      .where('fileMedia.fileId', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('job')
              .select('job.id')
              .where('job.dedupeKey', '=', sql<string>`${'file.thumbnail:'} || ${sql.ref('file.id')}`),
          ),
        ),
      )
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  findOwnedThumbnail(ownerId: string, thumbnailId: string): Promise<FileMediaRow | undefined> {
    return this.db
      .selectFrom('fileMedia')
      .selectAll()
      .where('thumbnailId', '=', thumbnailId)
      .where('ownerId', '=', ownerId)
      .executeTakeFirst();
  }

  /**
   * Records the outcome and points the file at its thumbnail, in one transaction that locks the
   * file row. False when the file is gone or another run recorded first: the caller then
   * deletes the blobs it wrote, since no row refers to them.
   */
  async record(row: FileMediaRow): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      let file = trx.selectFrom('file').select('id').where('id', '=', row.fileId);
      if (this.dialect === 'postgres') file = file.forUpdate();
      if (!(await file.executeTakeFirst())) return false;
      const inserted = await trx
        .insertInto('fileMedia')
        .values(row)
        .onConflict((oc) => oc.column('fileId').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return false;
      if (row.thumbnailId) await trx.updateTable('file').set({ thumbnailId: row.thumbnailId }).where('id', '=', row.fileId).execute();
      return true;
    });
  }
}

export type FileRenditionRow = FileRenditionTable;

/** Browser-playable renditions of videos: the probe's verdict and the rendition's blob. */
export class FileRenditionRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  find(fileId: string): Promise<FileRenditionRow | undefined> {
    return this.db.selectFrom('fileRendition').selectAll().where('fileId', '=', fileId).executeTakeFirst();
  }

  /**
   * Records a probe's verdict while the file still holds the content probed (its row locked);
   * `then` runs in the same transaction (the rendition job's enqueue). False when the file is
   * gone, its content was replaced, or another run recorded first.
   */
  async recordProbe(row: FileRenditionRow, then?: (trx: Db) => Promise<unknown>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.lockSource(trx, row.fileId, row.sourceKey))) return false;
      const inserted = await trx
        .insertInto('fileRendition')
        .values(row)
        .onConflict((oc) => oc.column('fileId').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return false;
      await then?.(trx);
      return true;
    });
  }

  /**
   * Turns a pending row into its outcome (with the rendition's blob when ready), only while the
   * file still holds the content it was made from. False otherwise: the caller deletes the blob.
   */
  async complete(
    fileId: string,
    sourceKey: string,
    outcome: Pick<FileRenditionRow, 'status' | 'error' | 'blobKey' | 'wrappedKey' | 'size' | 'sha256' | 'contentType' | 'processedAt'>,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await this.lockSource(trx, fileId, sourceKey))) return false;
      const updated = await trx
        .updateTable('fileRendition')
        .set(outcome)
        .where('fileId', '=', fileId)
        .where('sourceKey', '=', sourceKey)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    });
  }

  private async lockSource(trx: Db, fileId: string, sourceKey: string): Promise<boolean> {
    let file = trx.selectFrom('file').select('id').where('id', '=', fileId).where('storageKey', '=', sourceKey);
    if (this.dialect === 'postgres') file = file.forUpdate();
    return (await file.executeTakeFirst()) !== undefined;
  }
}
