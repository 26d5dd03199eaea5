import type { Db } from '../database.js';

export interface RemovedContent {
  /** Stored objects (file bytes and thumbnails) that no row refers to any more. */
  storageKeys: string[];
  fileCount: number;
  folderCount: number;
}

/**
 * Trash state changes that span the file and folder tables. Callers run these inside one
 * transaction. An item trashed along with a folder records that folder in `trashed_via`,
 * so restoring the folder brings back exactly what its trashing took.
 */
export class TrashRepository {
  constructor(private readonly db: Db) {}

  async trashFile(id: string, now: number): Promise<void> {
    await this.db.updateTable('file').set({ trashedAt: now, trashedVia: null }).where('id', '=', id).execute();
  }

  async trashFolder(folderId: string, subtreeIds: string[], now: number): Promise<void> {
    await this.db.updateTable('folder').set({ trashedAt: now, trashedVia: null }).where('id', '=', folderId).execute();
    for (const ids of chunks(subtreeIds.filter((id) => id !== folderId))) {
      await this.db
        .updateTable('folder')
        .set({ trashedAt: now, trashedVia: folderId })
        .where('id', 'in', ids)
        .where('trashedAt', 'is', null)
        .execute();
    }
    for (const ids of chunks(subtreeIds)) await this.updateFilesIn(ids, 'trashedAt', 'is', null, { trashedAt: now, trashedVia: folderId });
  }

  async restoreFile(id: string, folderId: string | null, now: number): Promise<void> {
    await this.db.updateTable('file').set({ trashedAt: null, trashedVia: null, folderId, updatedAt: now }).where('id', '=', id).execute();
  }

  /**
   * Restores a folder and what was trashed with it: items in its subtree whose `trashed_via`
   * is one of `cascades` (the folder itself, and the ancestor whose trashing took it along).
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
      await this.updateFilesIn(ids, 'trashedVia', 'in', cascades, { trashedAt: null, trashedVia: null });
    }
  }

  /**
   * Sets `values` on the files of `folderIds` whose `column` matches, by id a few hundred a
   * statement: one UPDATE over a 100,000-file folder ran past PostgreSQL's statement timeout.
   * Same transaction, same rows; the match is checked again as each batch is written.
   */
  private async updateFilesIn(
    folderIds: string[],
    column: 'trashedAt' | 'trashedVia',
    op: 'is' | 'in',
    match: null | string[],
    values: { trashedAt: number | null; trashedVia: string | null },
  ): Promise<void> {
    const files = await this.db.selectFrom('file').select('id').where('folderId', 'in', folderIds).where(column, op, match).execute();
    for (const batch of chunks(files.map((f) => f.id))) {
      await this.db.updateTable('file').set(values).where('id', 'in', batch).where(column, op, match).execute();
    }
  }

  /** Deletes files and whole folder subtrees (given as every folder id in them). */
  async deleteForever(fileIds: string[], subtreeFolderIds: string[]): Promise<RemovedContent> {
    const storageKeys: string[] = [];
    let fileCount = 0;
    for (const ids of chunks(fileIds)) {
      storageKeys.push(...(await this.previewKeys('file.id', ids)));
      const rows = await this.db.deleteFrom('file').where('id', 'in', ids).returning(['storageKey', 'thumbnailId']).execute();
      fileCount += rows.length;
      for (const r of rows) storageKeys.push(r.storageKey, ...(r.thumbnailId ? [r.thumbnailId] : []));
    }
    for (const ids of chunks(subtreeFolderIds)) {
      storageKeys.push(...(await this.previewKeys('file.folderId', ids)));
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

  /** Full-size previews of the files about to go (their rows go with the files, by cascade). */
  private async previewKeys(column: 'file.id' | 'file.folderId', ids: string[]): Promise<string[]> {
    const rows = await this.db
      .selectFrom('fileMedia')
      .innerJoin('file', 'file.id', 'fileMedia.fileId')
      .select('fileMedia.previewId')
      .where(column, 'in', ids)
      .where('fileMedia.previewId', 'is not', null)
      .execute();
    return rows.flatMap((r) => (r.previewId ? [r.previewId] : []));
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
