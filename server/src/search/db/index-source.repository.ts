import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { FileTable, FolderTable } from '../../db/schema.js';
import { RAW_IMAGE_TYPES, isHeic, isRawImage } from '../../media/formats.js';

/** Photos whose pixels the analysis does not decode: their picture is the thumbnail job's preview. */
export const PREVIEWED_TYPES = [...RAW_IMAGE_TYPES.values(), 'image/heic', 'image/heic-sequence', 'image/heif', 'image/heif-sequence'];

export function isPreviewedPhoto(contentType: string): boolean {
  return isHeic(contentType) || isRawImage(contentType);
}

export type IndexedFile = Pick<
  FileTable,
  | 'id'
  | 'ownerId'
  | 'folderId'
  | 'filename'
  | 'contentType'
  | 'size'
  | 'storageKey'
  | 'wrappedKey'
  | 'uploadedAt'
  | 'updatedAt'
  | 'trashedAt'
> & { folderName: string | null };

export type IndexedFolder = Pick<FolderTable, 'id' | 'ownerId' | 'name' | 'updatedAt' | 'trashedAt'> & { parentName: string | null };

export interface FolderChild {
  name: string;
  kind: string | null;
  place: string | null;
  content: string | null;
}

/** Reads what the indexer describes: files and folders with their surroundings, and what went stale. */
export class IndexSourceRepository {
  constructor(private readonly db: Db) {}

  file(id: string): Promise<IndexedFile | undefined> {
    return this.db
      .selectFrom('file')
      .leftJoin('folder', 'folder.id', 'file.folderId')
      .select([
        'file.id',
        'file.ownerId',
        'file.folderId',
        'file.filename',
        'file.contentType',
        'file.size',
        'file.storageKey',
        'file.wrappedKey',
        'file.uploadedAt',
        'file.updatedAt',
        'file.trashedAt',
        'folder.name as folderName',
      ])
      .where('file.id', '=', id)
      .executeTakeFirst();
  }

  folder(id: string): Promise<IndexedFolder | undefined> {
    return this.db
      .selectFrom('folder')
      .leftJoin('folder as parent', 'parent.id', 'folder.parentId')
      .select(['folder.id', 'folder.ownerId', 'folder.name', 'folder.updatedAt', 'folder.trashedAt', 'parent.name as parentName'])
      .where('folder.id', '=', id)
      .executeTakeFirst();
  }

  /** Active children of a folder with what their entries say (files) or their names (folders). */
  async children(folderId: string, limit: number): Promise<FolderChild[]> {
    const files = await this.db
      .selectFrom('file')
      .leftJoin('searchEntry', 'searchEntry.itemId', 'file.id')
      .select(['file.filename as name', 'searchEntry.kind', 'searchEntry.place', 'searchEntry.content'])
      .where('file.folderId', '=', folderId)
      .where('file.trashedAt', 'is', null)
      .orderBy('file.uploadedAt', 'desc')
      .limit(limit)
      .execute();
    const folders = await this.db
      .selectFrom('folder')
      .select(['name'])
      .where('parentId', '=', folderId)
      .where('trashedAt', 'is', null)
      .limit(limit)
      .execute();
    return [...folders.map((f) => ({ name: f.name, kind: 'folder', place: null, content: null })), ...files];
  }

  childFileIds(folderId: string): Promise<string[]> {
    return this.db
      .selectFrom('file')
      .select('id')
      .where('folderId', '=', folderId)
      .where('trashedAt', 'is', null)
      .execute()
      .then((rows) => rows.map((r) => r.id));
  }

  /**
   * The stored preview of a photo whose own pixels are not decoded by the analysis (HEIC, RAW):
   * `later` while the thumbnail job has not looked at the file yet, null when it made none.
   */
  async preview(fileId: string): Promise<{ key: string; wrappedKey: string; size: number } | null | 'later'> {
    const row = await this.db
      .selectFrom('fileMedia')
      .select(['previewId', 'previewWrappedKey', 'previewSize'])
      .where('fileId', '=', fileId)
      .executeTakeFirst();
    if (!row) return 'later';
    if (!row.previewId || row.previewWrappedKey === null || row.previewSize === null) return null;
    return { key: row.previewId, wrappedKey: row.previewWrappedKey, size: row.previewSize };
  }

  /**
   * Active files whose entry is missing or older than the pipeline, the model or the file itself,
   * and, given the ready image–text model's id, photos and videos not yet embedded by it.
   */
  async staleFiles(version: number, modelId: string, limit: number, pictureModelId: string | null = null): Promise<string[]> {
    const rows = await this.db
      .selectFrom('file')
      .leftJoin('searchEntry as e', 'e.itemId', 'file.id')
      .select('file.id')
      .where('file.trashedAt', 'is', null)
      .where((eb) =>
        eb.or([
          eb('e.itemId', 'is', null),
          eb('e.analysisVersion', '<', version),
          eb('e.modelId', 'is', null),
          eb('e.modelId', '!=', modelId),
          eb('e.sourceUpdatedAt', '!=', eb.ref('file.updatedAt')),
          ...(pictureModelId
            ? [
                eb.and([
                  eb('e.kind', 'in', ['photo', 'video']),
                  eb.or([eb('e.imageModelId', 'is', null), eb('e.imageModelId', '!=', pictureModelId)]),
                  // A HEIC or RAW is embedded from its preview: not before the thumbnail job made it.
                  eb.or([
                    eb('file.contentType', 'not in', PREVIEWED_TYPES),
                    eb.exists(eb.selectFrom('fileMedia as m').select('m.fileId').whereRef('m.fileId', '=', 'file.id')),
                  ]),
                ]),
              ]
            : []),
        ]),
      )
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  async staleFolders(version: number, modelId: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('folder')
      .leftJoin('searchEntry as e', 'e.itemId', 'folder.id')
      .select('folder.id')
      .where('folder.trashedAt', 'is', null)
      .where((eb) =>
        eb.or([
          eb('e.itemId', 'is', null),
          eb('e.analysisVersion', '<', version),
          eb('e.modelId', 'is', null),
          eb('e.modelId', '!=', modelId),
          eb('e.sourceUpdatedAt', '!=', eb.ref('folder.updatedAt')),
        ]),
      )
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Entries of items deleted for good. */
  async removeOrphans(limit: number): Promise<number> {
    const orphans = await this.db
      .selectFrom('searchEntry as e')
      .select('e.itemId')
      .where(sql<boolean>`not exists (select 1 from file where file.id = e.item_id)`)
      .where(sql<boolean>`not exists (select 1 from folder where folder.id = e.item_id)`)
      .limit(limit)
      .execute();
    if (orphans.length > 0)
      await this.db
        .deleteFrom('searchEntry')
        .where(
          'itemId',
          'in',
          orphans.map((o) => o.itemId),
        )
        .execute();
    return orphans.length;
  }
}
