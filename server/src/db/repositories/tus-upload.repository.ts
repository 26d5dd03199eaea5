import type { Db } from '../database.js';
import type { TusUploadTable } from '../schema.js';

export type TusUploadRow = TusUploadTable;

export class TusUploadRepository {
  constructor(private readonly db: Db) {}

  async insert(row: TusUploadRow): Promise<void> {
    await this.db.insertInto('tusUpload').values(row).execute();
  }

  findOwned(ownerId: string, id: string): Promise<TusUploadRow | undefined> {
    return this.db.selectFrom('tusUpload').selectAll().where('id', '=', id).where('ownerId', '=', ownerId).executeTakeFirst();
  }

  findById(id: string): Promise<TusUploadRow | undefined> {
    return this.db.selectFrom('tusUpload').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Unfinished uploads through one drop link. */
  async countForLink(linkId: string): Promise<number> {
    const row = await this.db
      .selectFrom('tusUpload')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('dropLinkId', '=', linkId)
      .where('fileId', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countOwned(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('tusUpload')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ownerId', '=', ownerId)
      .where('fileId', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Takes the upload for one request until `until`, in one conditional statement: of any number
   * of requests (in any process) at most one holds it at a time. False when another holds it.
   */
  async claim(id: string, now: number, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('tusUpload')
      .set({ leaseUntil: until })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Takes the owner's upload for one piece at `offset` until `until`, in one conditional statement
   * that answers the row as it stands once taken: only when the upload is live (not expired, no
   * file yet, not every byte stored), is at exactly that offset and no request holds it. Undefined
   * when any of that fails; the caller reads the row to tell which.
   */
  claimPiece(ownerId: string, id: string, offset: number, now: number, until: number): Promise<TusUploadRow | undefined> {
    return this.db
      .updateTable('tusUpload')
      .set({ leaseUntil: until })
      .where('id', '=', id)
      .where('ownerId', '=', ownerId)
      .where('offset', '=', offset)
      .where('fileId', 'is', null)
      .where('expiresAt', '>', now)
      .where((eb) => eb.or([eb('offset', '<', eb.ref('length')), eb('segments', '=', 0)]))
      .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<=', now)]))
      .returningAll()
      .executeTakeFirst();
  }

  async renew(id: string, until: number): Promise<void> {
    await this.db.updateTable('tusUpload').set({ leaseUntil: until }).where('id', '=', id).execute();
  }

  async release(id: string): Promise<void> {
    await this.db.updateTable('tusUpload').set({ leaseUntil: null }).where('id', '=', id).execute();
  }

  /** Records a stored piece; `release` lets go of the lease in the same statement (a piece that does not finish the upload). */
  async advance(id: string, offset: number, segments: number, expiresAt: number, release = false): Promise<void> {
    await this.db
      .updateTable('tusUpload')
      .set(release ? { offset, segments, expiresAt, leaseUntil: null } : { offset, segments, expiresAt })
      .where('id', '=', id)
      .execute();
  }

  async complete(id: string, fileId: string): Promise<void> {
    await this.db.updateTable('tusUpload').set({ fileId, leaseUntil: null }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('tusUpload').where('id', '=', id).execute();
  }

  expired(now: number, limit: number): Promise<TusUploadRow[]> {
    return this.db.selectFrom('tusUpload').selectAll().where('expiresAt', '<=', now).orderBy('expiresAt').limit(limit).execute();
  }
}
