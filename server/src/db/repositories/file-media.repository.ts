import { sql } from 'kysely';
import type { Db, Dialect } from '../database.js';
import type { FileMediaTable } from '../schema.js';

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

  /** Photos and videos the thumbnail job never processed and has no pending job for. */
  async unprocessedMedia(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('file')
      .leftJoin('fileMedia', 'fileMedia.fileId', 'file.id')
      .select('file.id')
      .where('file.mediaKind', 'is not', null)
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
