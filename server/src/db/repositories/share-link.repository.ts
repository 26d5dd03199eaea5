import type { Updateable } from 'kysely';
import type { Db } from '../database.js';
import type { DropOriginTable, ShareLinkTable } from '../schema.js';

export type ShareLinkRow = ShareLinkTable;
export type DropOriginRow = DropOriginTable;

export class ShareLinkRepository {
  constructor(private readonly db: Db) {}

  async insert(row: ShareLinkRow): Promise<void> {
    await this.db.insertInto('shareLink').values(row).execute();
  }

  findByToken(token: string): Promise<ShareLinkRow | undefined> {
    return this.db.selectFrom('shareLink').selectAll().where('token', '=', token).executeTakeFirst();
  }

  findOwned(ownerId: string, id: string): Promise<ShareLinkRow | undefined> {
    return this.db.selectFrom('shareLink').selectAll().where('id', '=', id).where('ownerId', '=', ownerId).executeTakeFirst();
  }

  listOwned(ownerId: string, itemId?: string): Promise<ShareLinkRow[]> {
    let query = this.db.selectFrom('shareLink').selectAll().where('ownerId', '=', ownerId);
    if (itemId !== undefined) query = query.where('itemId', '=', itemId);
    return query.orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
  }

  async countForItem(ownerId: string, itemId: string): Promise<number> {
    const row = await this.db
      .selectFrom('shareLink')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ownerId', '=', ownerId)
      .where('itemId', '=', itemId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async update(ownerId: string, id: string, changes: Updateable<ShareLinkTable>): Promise<void> {
    await this.db.updateTable('shareLink').set(changes).where('id', '=', id).where('ownerId', '=', ownerId).execute();
  }

  /** False when the owner has no such link. */
  async deleteOwned(ownerId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('shareLink').where('id', '=', id).where('ownerId', '=', ownerId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async deleteForItems(itemIds: string[]): Promise<void> {
    if (itemIds.length > 0) await this.db.deleteFrom('shareLink').where('itemId', 'in', itemIds).execute();
  }

  /**
   * Takes one download if the link has one left, in one statement: however many requests arrive
   * at once, on however many server processes, a limit of N lets exactly N through.
   */
  async takeDownload(id: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('shareLink')
      .set((eb) => ({ downloads: eb('downloads', '+', 1), lastAccessAt: now }))
      .where('id', '=', id)
      .where((eb) => eb.or([eb('maxDownloads', 'is', null), eb('downloads', '<', eb.ref('maxDownloads'))]))
      .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Takes one file of a drop link's allowance, the same way. */
  async takeDropSlot(id: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('shareLink')
      .set((eb) => ({ filesReceived: eb('filesReceived', '+', 1), lastAccessAt: now }))
      .where('id', '=', id)
      .where((eb) => eb.or([eb('maxFiles', 'is', null), eb('filesReceived', '<', eb.ref('maxFiles'))]))
      .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives back a drop slot whose upload failed. */
  async releaseDropSlot(id: string): Promise<void> {
    await this.db
      .updateTable('shareLink')
      .set((eb) => ({ filesReceived: eb('filesReceived', '-', 1) }))
      .where('id', '=', id)
      .where('filesReceived', '>', 0)
      .execute();
  }

  /** Marks the link used, at most once a minute, so browsing a folder does not write on every request. */
  async touch(id: string, now: number): Promise<void> {
    await this.db
      .updateTable('shareLink')
      .set({ lastAccessAt: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lastAccessAt', 'is', null), eb('lastAccessAt', '<', now - 60_000)]))
      .execute();
  }

  async insertDropOrigin(row: DropOriginRow): Promise<void> {
    await this.db.insertInto('dropOrigin').values(row).execute();
  }

  findDropOrigin(ownerId: string, fileId: string): Promise<DropOriginRow | undefined> {
    return this.db.selectFrom('dropOrigin').selectAll().where('fileId', '=', fileId).where('ownerId', '=', ownerId).executeTakeFirst();
  }
}
