import { sql } from 'kysely';
import type { Db } from '../database.js';
import type { DavLockTable, DavPropertyTable } from '../schema.js';
import type { FileRow } from './file.repository.js';
import type { FolderRow } from './folder.repository.js';

export type DavPropertyRow = DavPropertyTable;
export type DavLockRow = DavLockTable;
export type DavPropertyKey = Pick<DavPropertyTable, 'itemId' | 'namespace' | 'name'>;
/** A dead property without its value: `bytes` is the value's size in UTF-8. */
export type DavPropertySize = DavPropertyKey & { bytes: number };

/** Name lookups for WebDAV paths, dead properties and locks. */
export class DavRepository {
  constructor(private readonly db: Db) {}

  /** Active folders in `parentId` whose name is exactly `name`, oldest first. */
  foldersNamed(ownerId: string, parentId: string | null, name: string): Promise<FolderRow[]> {
    return this.db
      .selectFrom('folder')
      .selectAll()
      .where('ownerId', '=', ownerId)
      .where('parentId', parentId === null ? 'is' : '=', parentId)
      .where('nameKey', '=', name.toLowerCase())
      .where('trashedAt', 'is', null)
      .orderBy('createdAt')
      .orderBy('id')
      .execute()
      .then((rows) => rows.filter((r) => r.name === name));
  }

  /** Active files in `folderId` whose name is exactly `name`, oldest first. */
  filesNamed(ownerId: string, folderId: string | null, name: string): Promise<FileRow[]> {
    return this.db
      .selectFrom('file')
      .selectAll()
      .where('ownerId', '=', ownerId)
      .where('folderId', folderId === null ? 'is' : '=', folderId)
      .where('nameKey', '=', name.toLowerCase())
      .where('trashedAt', 'is', null)
      .orderBy('uploadedAt')
      .orderBy('id')
      .execute()
      .then((rows) => rows.filter((r) => r.filename === name));
  }

  async properties(itemId: string): Promise<DavPropertyRow[]> {
    return this.db.selectFrom('davProperty').selectAll().where('itemId', '=', itemId).orderBy('namespace').orderBy('name').execute();
  }

  /**
   * The names and value sizes of the dead properties of many items (a page of a PROPFIND listing),
   * by item, in name order: values can be large, so a listing reads only those it shows.
   */
  async propertySizes(itemIds: string[]): Promise<Map<string, DavPropertySize[]>> {
    const byItem = new Map<string, DavPropertySize[]>();
    if (itemIds.length === 0) return byItem;
    const rows = await this.db
      .selectFrom('davProperty')
      .select(['itemId', 'namespace', 'name', sql<number>`octet_length(value)`.as('bytes')])
      .where('itemId', 'in', itemIds)
      .orderBy('namespace')
      .orderBy('name')
      .execute();
    for (const row of rows)
      (byItem.get(row.itemId) ?? byItem.set(row.itemId, []).get(row.itemId)!).push({ ...row, bytes: Number(row.bytes) });
    return byItem;
  }

  /** These dead properties with their values, by item. */
  async propertyValues(keys: DavPropertyKey[]): Promise<Map<string, DavPropertyRow[]>> {
    const byItem = new Map<string, DavPropertyRow[]>();
    if (keys.length === 0) return byItem;
    const rows = await this.db
      .selectFrom('davProperty')
      .selectAll()
      .where((eb) =>
        eb.or(keys.map((k) => eb.and([eb('itemId', '=', k.itemId), eb('namespace', '=', k.namespace), eb('name', '=', k.name)]))),
      )
      .orderBy('namespace')
      .orderBy('name')
      .execute();
    for (const row of rows) (byItem.get(row.itemId) ?? byItem.set(row.itemId, []).get(row.itemId)!).push(row);
    return byItem;
  }

  async setProperty(row: DavPropertyRow): Promise<void> {
    await this.db
      .insertInto('davProperty')
      .values(row)
      .onConflict((oc) => oc.columns(['itemId', 'namespace', 'name']).doUpdateSet({ value: row.value }))
      .execute();
  }

  async removeProperty(itemId: string, namespace: string, name: string): Promise<void> {
    await this.db
      .deleteFrom('davProperty')
      .where('itemId', '=', itemId)
      .where('namespace', '=', namespace)
      .where('name', '=', name)
      .execute();
  }

  async countProperties(itemId: string): Promise<number> {
    const row = await this.db
      .selectFrom('davProperty')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('itemId', '=', itemId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async copyProperties(fromId: string, toId: string): Promise<void> {
    const rows = await this.properties(fromId);
    for (const row of rows) await this.setProperty({ ...row, itemId: toId });
  }

  /** Locks of the owner that have not expired. */
  activeLocks(ownerId: string, now: number): Promise<DavLockRow[]> {
    return this.db.selectFrom('davLock').selectAll().where('ownerId', '=', ownerId).where('expiresAt', '>', now).execute();
  }

  findLock(ownerId: string, token: string): Promise<DavLockRow | undefined> {
    return this.db.selectFrom('davLock').selectAll().where('ownerId', '=', ownerId).where('token', '=', token).executeTakeFirst();
  }

  async insertLock(row: DavLockRow): Promise<void> {
    await this.db.insertInto('davLock').values(row).execute();
  }

  async refreshLock(token: string, timeoutSeconds: number, expiresAt: number): Promise<void> {
    await this.db.updateTable('davLock').set({ timeoutSeconds, expiresAt }).where('token', '=', token).execute();
  }

  async deleteLock(ownerId: string, token: string): Promise<boolean> {
    const result = await this.db.deleteFrom('davLock').where('ownerId', '=', ownerId).where('token', '=', token).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Removes the owner's locks on these paths (a resource deleted or moved away loses its locks). */
  async deleteLocksAt(ownerId: string, paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    await this.db.deleteFrom('davLock').where('ownerId', '=', ownerId).where('path', 'in', paths).execute();
  }

  async purgeExpiredLocks(now: number): Promise<void> {
    await this.db.deleteFrom('davLock').where('expiresAt', '<=', now).execute();
  }

  /** Dead properties of items that no longer exist. */
  async purgeOrphanProperties(): Promise<void> {
    await this.db
      .deleteFrom('davProperty')
      .where((eb) =>
        eb.and([
          eb.not(eb.exists(eb.selectFrom('file').select('file.id').whereRef('file.id', '=', 'davProperty.itemId'))),
          eb.not(eb.exists(eb.selectFrom('folder').select('folder.id').whereRef('folder.id', '=', 'davProperty.itemId'))),
        ]),
      )
      .execute();
  }
}
