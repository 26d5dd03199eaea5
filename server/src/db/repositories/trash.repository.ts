import type { Db, Dialect } from '../database.js';
import { FileVersionRepository } from './file-version.repository.js';

export interface RemovedContent {
  /** Stored objects (file bytes, earlier versions' bytes, thumbnails and previews) that no row refers to any more. */
  storageKeys: string[];
  fileCount: number;
  folderCount: number;
}

/**
 * The files of a folder's subtree following the folder into the trash or out of it. Written with
 * the folder's own change and removed with the last of its files, so a cascade a stopped server
 * left half-done is found and finished.
 */
export interface Cascade {
  id: string;
  ownerId: string;
  /** The folder trashed or restored. */
  folderId: string;
  action: 'trash' | 'restore';
  /** Trash: the time its files get (the folder's own). */
  trashedAt: number | null;
  /** Restore: the `trashed_via` values of the files that come back. */
  cascades: string[];
}

// A type, not an interface: `withTables` takes a record of tables.
type CascadeTables = {
  trashCascade: {
    id: string;
    ownerId: string;
    folderId: string;
    action: string;
    trashedAt: number | null;
    cascades: string;
    createdAt: number;
  };
  trashCascadeFolder: { cascadeId: string; folderId: string };
};

/**
 * Rows one UPDATE of a cascade changes at most: on PostgreSQL well under its statement timeout; on
 * SQLite, where every statement holds up the whole server while it runs, a few milliseconds' work.
 */
const ROWS_PER_STATEMENT = { batched: 100, whole: 1000 };
/** What visiting one folder of a cascade counts for against a step's row budget. */
const FOLDER_VISIT_COST = 20;

/** How far one `cascadeStep` goes: about `rows` files, and no statement begun after `until` (a `performance.now()` time) but the first. */
export interface CascadeBudget {
  rows: number;
  until?: number;
}

/**
 * Trash state changes that span the file and folder tables, each run inside the caller's
 * transaction. An item trashed along with a folder records that folder in `trashed_via`,
 * so restoring the folder brings back exactly what its trashing took.
 */
export class TrashRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Whether long cascades commit in batches: SQLite runs one transaction at a time on its one
   * connection, so a cascade in one transaction would hold up every other request. PostgreSQL
   * runs them side by side and keeps a cascade in the transaction that trashes the folder.
   */
  get commitsCascadesInBatches(): boolean {
    return this.dialect === 'sqlite';
  }

  async trashFile(id: string, now: number): Promise<void> {
    await this.db.updateTable('file').set({ trashedAt: now, trashedVia: null }).where('id', '=', id).execute();
  }

  /**
   * Trashes a folder and the active folders of its subtree; answers the folder and those (their
   * files follow by `cascadeStep`). Folders trashed before keep their own trashing.
   */
  async trashFolder(folderId: string, subtreeIds: string[], now: number): Promise<string[]> {
    await this.db.updateTable('folder').set({ trashedAt: now, trashedVia: null }).where('id', '=', folderId).execute();
    const taken = [folderId];
    for (const ids of chunks(subtreeIds.filter((id) => id !== folderId))) {
      const rows = await this.db
        .updateTable('folder')
        .set({ trashedAt: now, trashedVia: folderId })
        .where('id', 'in', ids)
        .where('trashedAt', 'is', null)
        .returning('id')
        .execute();
      taken.push(...rows.map((r) => r.id));
    }
    return taken;
  }

  async restoreFile(id: string, folderId: string | null, now: number): Promise<void> {
    await this.db.updateTable('file').set({ trashedAt: null, trashedVia: null, folderId, updatedAt: now }).where('id', '=', id).execute();
  }

  /**
   * Restores a folder and the folders of its subtree whose `trashed_via` is one of `cascades` (the
   * folder itself, and the ancestor whose trashing took it along); their files follow by `cascadeStep`.
   */
  async restoreFolder(folderId: string, parentId: string | null, subtreeIds: string[], cascades: string[], now: number): Promise<void> {
    await this.db
      .updateTable('folder')
      .set({ trashedAt: null, trashedVia: null, parentId, updatedAt: now })
      .where('id', '=', folderId)
      .execute();
    for (const ids of chunks(subtreeIds)) {
      await this.db
        .updateTable('folder')
        .set({ trashedAt: null, trashedVia: null })
        .where('id', 'in', ids)
        .where('trashedVia', 'in', cascades)
        .execute();
    }
  }

  /** Records a cascade over the files of `folderIds` (the subtree as it was when it began). */
  async beginCascade(cascade: Cascade, folderIds: string[], now: number): Promise<void> {
    const db = this.db.withTables<CascadeTables>();
    await db
      .insertInto('trashCascade')
      .values({
        id: cascade.id,
        ownerId: cascade.ownerId,
        folderId: cascade.folderId,
        action: cascade.action,
        trashedAt: cascade.trashedAt,
        cascades: JSON.stringify(cascade.cascades),
        createdAt: now,
      })
      .execute();
    for (const ids of chunks(folderIds)) {
      await db
        .insertInto('trashCascadeFolder')
        .values(ids.map((folderId) => ({ cascadeId: cascade.id, folderId })))
        .execute();
    }
  }

  /** Cascades left unfinished (by a stopped server), of one owner or of all. */
  async unfinishedCascades(ownerId?: string): Promise<Cascade[]> {
    let query = this.db.withTables<CascadeTables>().selectFrom('trashCascade').selectAll().orderBy('createdAt').orderBy('id');
    if (ownerId !== undefined) query = query.where('ownerId', '=', ownerId);
    const rows = await query.execute();
    return rows.map((r) => ({
      id: r.id,
      ownerId: r.ownerId,
      folderId: r.folderId,
      action: r.action === 'restore' ? 'restore' : 'trash',
      trashedAt: r.trashedAt === null ? null : Number(r.trashedAt),
      cascades: JSON.parse(r.cascades) as string[],
    }));
  }

  /**
   * Moves the cascade on, folder by folder, within `budget`. Answers whether it is done (its record
   * gone) and the rows left of the budget. Idempotent: a file already done no longer matches.
   */
  async cascadeStep(cascade: Cascade, budget: CascadeBudget): Promise<{ done: boolean; left: number }> {
    const db = this.db.withTables<CascadeTables>();
    const perStatement = this.commitsCascadesInBatches ? ROWS_PER_STATEMENT.batched : ROWS_PER_STATEMENT.whole;
    let left = budget.rows;
    // At least one statement, however late: every step moves the cascade on.
    for (let first = true; left > 0 && (first || budget.until === undefined || performance.now() < budget.until); first = false) {
      const next = await db
        .selectFrom('trashCascadeFolder')
        .select('folderId')
        .where('cascadeId', '=', cascade.id)
        .orderBy('folderId')
        .limit(1)
        .executeTakeFirst();
      if (!next) {
        await db.deleteFrom('trashCascade').where('id', '=', cascade.id).execute();
        return { done: true, left };
      }
      const wanted = Math.min(left, perStatement);
      const changed = await this.cascadeFiles(cascade, next.folderId, wanted);
      left -= changed + FOLDER_VISIT_COST;
      if (changed < wanted) {
        await db.deleteFrom('trashCascadeFolder').where('cascadeId', '=', cascade.id).where('folderId', '=', next.folderId).execute();
      }
    }
    return { done: false, left: Math.max(left, 0) };
  }

  /** Up to `limit` files of one folder follow the cascade; answers how many did. */
  private async cascadeFiles(cascade: Cascade, folderId: string, limit: number): Promise<number> {
    if (cascade.action === 'trash') {
      const result = await this.db
        .updateTable('file')
        .set({ trashedAt: cascade.trashedAt, trashedVia: cascade.folderId })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('file')
            .select('id')
            .where('ownerId', '=', cascade.ownerId)
            .where('folderId', '=', folderId)
            .where('trashedAt', 'is', null)
            .limit(limit),
        )
        .where('trashedAt', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    }
    let changed = 0;
    // One value at a time: each is an equality the partial index `file_cascade_idx` answers.
    for (const via of cascade.cascades) {
      if (changed >= limit) break;
      const result = await this.db
        .updateTable('file')
        .set({ trashedAt: null, trashedVia: null })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('file')
            .select('id')
            .where('folderId', '=', folderId)
            .where('trashedVia', '=', via)
            .limit(limit - changed),
        )
        .where('trashedVia', '=', via)
        .executeTakeFirst();
      changed += Number(result.numUpdatedRows);
    }
    return changed;
  }

  /** Deletes files and whole folder subtrees (given as every folder id in them). */
  async deleteForever(fileIds: string[], subtreeFolderIds: string[]): Promise<RemovedContent> {
    const storageKeys: string[] = [];
    let fileCount = 0;
    // Versions' rows go with their files by cascade; their bytes are looked up first.
    const versions = new FileVersionRepository(this.db);
    for (const ids of chunks(fileIds)) {
      storageKeys.push(...(await this.previewKeys('file.id', ids)), ...(await versions.keysOfFiles(ids)));
      storageKeys.push(...(await this.motionClipKeys('file.id', ids)));
      const rows = await this.db.deleteFrom('file').where('id', 'in', ids).returning(['storageKey', 'thumbnailId']).execute();
      fileCount += rows.length;
      for (const r of rows) storageKeys.push(r.storageKey, ...(r.thumbnailId ? [r.thumbnailId] : []));
    }
    for (const ids of chunks(subtreeFolderIds)) {
      storageKeys.push(...(await this.previewKeys('file.folderId', ids)), ...(await versions.keysInFolders(ids)));
      storageKeys.push(...(await this.motionClipKeys('file.folderId', ids)));
      const rows = await this.db.deleteFrom('file').where('folderId', 'in', ids).returning(['storageKey', 'thumbnailId']).execute();
      fileCount += rows.length;
      for (const r of rows) storageKeys.push(r.storageKey, ...(r.thumbnailId ? [r.thumbnailId] : []));
    }
    // Detached from their parents first, the folders can go in any order (and a damaged tree with a
    // parent cycle goes too).
    let folderCount = 0;
    for (const ids of chunks(subtreeFolderIds)) {
      await this.db.updateTable('folder').set({ parentId: null }).where('id', 'in', ids).execute();
    }
    for (const ids of chunks(subtreeFolderIds)) {
      const result = await this.db.deleteFrom('folder').where('id', 'in', ids).executeTakeFirst();
      folderCount += Number(result.numDeletedRows);
    }
    return { storageKeys, fileCount, folderCount };
  }

  /** Full-size previews and video renditions of the files about to go (their rows go with the files, by cascade). */
  private async previewKeys(column: 'file.id' | 'file.folderId', ids: string[]): Promise<string[]> {
    const rows = await this.db
      .selectFrom('fileMedia')
      .innerJoin('file', 'file.id', 'fileMedia.fileId')
      .select('fileMedia.previewId')
      .where(column, 'in', ids)
      .where('fileMedia.previewId', 'is not', null)
      .execute();
    const renditions = await this.db
      .selectFrom('fileRendition')
      .innerJoin('file', 'file.id', 'fileRendition.fileId')
      .select('fileRendition.blobKey')
      .where(column, 'in', ids)
      .where('fileRendition.blobKey', 'is not', null)
      .execute();
    return [...rows.flatMap((r) => (r.previewId ? [r.previewId] : [])), ...renditions.flatMap((r) => (r.blobKey ? [r.blobKey] : []))];
  }

  /** Clips of the motion photos about to go (their rows go with the files, by cascade). */
  private async motionClipKeys(column: 'file.id' | 'file.folderId', ids: string[]): Promise<string[]> {
    const rows = await this.db
      .selectFrom('fileMotion')
      .innerJoin('file', 'file.id', 'fileMotion.fileId')
      .select('fileMotion.clipId')
      .where(column, 'in', ids)
      .where('fileMotion.clipId', 'is not', null)
      .execute();
    return rows.flatMap((r) => (r.clipId ? [r.clipId] : []));
  }

  /** Top-most items trashed before `cutoff`: what trash retention deletes. */
  async expired(cutoff: number, limit: number): Promise<{ fileIds: string[]; folderIds: string[] }> {
    const files = await this.db
      .selectFrom('file')
      .select('id')
      .where('trashedAt', '<', cutoff)
      .where('trashedVia', 'is', null)
      .limit(limit)
      .execute();
    const folders = await this.db
      .selectFrom('folder')
      .select('id')
      .where('trashedAt', '<', cutoff)
      .where('trashedVia', 'is', null)
      .limit(limit)
      .execute();
    return { fileIds: files.map((f) => f.id), folderIds: folders.map((f) => f.id) };
  }
}

/** Keeps IN lists well under every driver's bound-parameter limit. */
function chunks<T>(items: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
