import { LIMITS } from '@nimbus/common';
import { sql } from 'kysely';
import type { Db } from '../database.js';
import type { ItemShareTable, ShareRole } from '../schema.js';

export type ItemShareRow = ItemShareTable;

/** A share with the e-mail of the account on its other side. */
export type ItemShareWithAccount = ItemShareRow & { accountEmail: string };

/** A share of the caller found on an item's chain of folders; `depth` 0 is the item itself. */
export interface ShareOnChain {
  id: string;
  itemId: string;
  itemType: 'file' | 'folder';
  role: ShareRole;
  ownerId: string;
  ownerEmail: string;
  depth: number;
}

export class ItemShareRepository {
  constructor(private readonly db: Db) {}

  async insert(row: ItemShareRow): Promise<void> {
    await this.db.insertInto('itemShare').values(row).execute();
  }

  findById(id: string): Promise<ItemShareRow | undefined> {
    return this.db.selectFrom('itemShare').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findForRecipient(itemId: string, recipientId: string): Promise<ItemShareRow | undefined> {
    return this.db
      .selectFrom('itemShare')
      .selectAll()
      .where('itemId', '=', itemId)
      .where('recipientId', '=', recipientId)
      .executeTakeFirst();
  }

  /** The shares of one item, each with its recipient's e-mail, oldest first. */
  listForItem(ownerId: string, itemId: string): Promise<ItemShareWithAccount[]> {
    return this.db
      .selectFrom('itemShare')
      .innerJoin('account', 'account.id', 'itemShare.recipientId')
      .selectAll('itemShare')
      .select('account.email as accountEmail')
      .where('itemShare.ownerId', '=', ownerId)
      .where('itemShare.itemId', '=', itemId)
      .orderBy('itemShare.createdAt', 'asc')
      .orderBy('itemShare.id', 'asc')
      .execute();
  }

  async countForItem(itemId: string): Promise<number> {
    const row = await this.db
      .selectFrom('itemShare')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('itemId', '=', itemId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Shares received by `recipientId` from owners who are neither disabled nor deleted, newest first. */
  listReceived(recipientId: string, limit: number): Promise<ItemShareWithAccount[]> {
    return this.db
      .selectFrom('itemShare')
      .innerJoin('account', 'account.id', 'itemShare.ownerId')
      .selectAll('itemShare')
      .select('account.email as accountEmail')
      .where('itemShare.recipientId', '=', recipientId)
      .where('account.disabledAt', 'is', null)
      .where('account.deletedAt', 'is', null)
      .orderBy('itemShare.createdAt', 'desc')
      .orderBy('itemShare.id', 'desc')
      .limit(limit)
      .execute();
  }

  async updateRole(id: string, role: ShareRole, now: number): Promise<void> {
    await this.db.updateTable('itemShare').set({ role, updatedAt: now }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('itemShare').where('id', '=', id).execute();
  }

  /** Shares of items that no longer exist (deleted for good under a deleted folder, or by the trash purge). */
  async deleteOrphans(): Promise<void> {
    await this.db
      .deleteFrom('itemShare')
      .where((eb) =>
        eb.and([
          eb.not(eb.exists(eb.selectFrom('file').select('file.id').whereRef('file.id', '=', 'itemShare.itemId'))),
          eb.not(eb.exists(eb.selectFrom('folder').select('folder.id').whereRef('folder.id', '=', 'itemShare.itemId'))),
        ]),
      )
      .execute();
  }

  async deleteForItems(itemIds: readonly string[]): Promise<void> {
    for (let i = 0; i < itemIds.length; i += 500) {
      await this.db
        .deleteFrom('itemShare')
        .where('itemId', 'in', itemIds.slice(i, i + 500))
        .execute();
    }
  }

  /**
   * The recipient's shares of an item or of the folders above it (nearest first), from active owners.
   * One recursive query walks up from `folderId`, bounded by the depth limit.
   */
  sharesOnChain(recipientId: string, fileId: string | null, folderId: string | null): Promise<ShareOnChain[]> {
    const bound = LIMITS.folderDepthMax + 1;
    const offset = fileId === null ? 0 : 1;
    return this.db
      .withRecursive('chain(id, parentId, depth)', (qb) =>
        qb
          .selectFrom('folder')
          .select(['id', 'parentId', sql<number>`${sql.lit(offset)}`.as('depth')])
          .where('id', '=', folderId ?? '')
          .unionAll((q) =>
            q
              .selectFrom('folder as up')
              .innerJoin('chain', 'chain.parentId', 'up.id')
              .select(['up.id', 'up.parentId', sql<number>`chain.depth + 1`.as('depth')])
              .where('chain.depth', '<', bound),
          ),
      )
      .selectFrom('itemShare')
      .innerJoin('account', 'account.id', 'itemShare.ownerId')
      .leftJoin('chain', (join) => join.onRef('chain.id', '=', 'itemShare.itemId').on('itemShare.itemType', '=', 'folder'))
      .select([
        'itemShare.id',
        'itemShare.itemId',
        'itemShare.itemType',
        'itemShare.role',
        'itemShare.ownerId',
        'account.email as ownerEmail',
        (eb) => eb.fn.coalesce('chain.depth', eb.lit(0)).as('depth'),
      ])
      .where('itemShare.recipientId', '=', recipientId)
      .where('account.disabledAt', 'is', null)
      .where('account.deletedAt', 'is', null)
      .where((eb) =>
        eb.or([eb.and([eb('itemShare.itemType', '=', 'file'), eb('itemShare.itemId', '=', fileId ?? '')]), eb('chain.id', 'is not', null)]),
      )
      .orderBy('depth', 'asc')
      .execute()
      .then((rows) => rows.map((r) => ({ ...r, depth: Number(r.depth) })));
  }

  async fileOfThumbnail(thumbnailId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('fileMedia').select('fileId').where('thumbnailId', '=', thumbnailId).executeTakeFirst();
    return row?.fileId;
  }

  /**
   * Moves the recipient's drive version: what a share adds or takes away changes their search answers,
   * which the answer cache keeps by that version.
   */
  async bumpDriveVersion(accountId: string): Promise<void> {
    await sql`INSERT INTO drive_version (account_id, version) VALUES (${accountId}, 1)
      ON CONFLICT (account_id) DO UPDATE SET version = drive_version.version + 1`.execute(this.db);
  }
}
