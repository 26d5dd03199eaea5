import type { Db } from '../database.js';
import type { FileContentPeriodTable, FileVersionTable } from '../schema.js';

export type FileVersionRow = FileVersionTable;

/** Keeps IN lists well under every driver's bound-parameter limit. */
const CHUNK = 500;

/** Earlier contents of files. A row owns its blob: whoever deletes rows hands their keys to the blob-deletion job. */
export class FileVersionRepository {
  constructor(private readonly db: Db) {}

  async insert(row: FileVersionRow): Promise<void> {
    await this.db.insertInto('fileVersion').values(row).execute();
  }

  /** A file's versions, newest first. */
  listForFile(fileId: string): Promise<FileVersionRow[]> {
    return this.db
      .selectFrom('fileVersion')
      .selectAll()
      .where('fileId', '=', fileId)
      .orderBy('uploadedAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  find(fileId: string, versionId: string): Promise<FileVersionRow | undefined> {
    return this.db.selectFrom('fileVersion').selectAll().where('id', '=', versionId).where('fileId', '=', fileId).executeTakeFirst();
  }

  /** The newest version of the file stored at or before `at`: its content as it was then. */
  latestAtOrBefore(fileId: string, at: number): Promise<FileVersionRow | undefined> {
    return this.db
      .selectFrom('fileVersion')
      .selectAll()
      .where('fileId', '=', fileId)
      .where('uploadedAt', '<=', at)
      .orderBy('uploadedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Deletes rows and answers their blob keys, for the blob-deletion job. */
  async delete(ids: string[]): Promise<string[]> {
    const keys: string[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await this.db
        .deleteFrom('fileVersion')
        .where('id', 'in', ids.slice(i, i + CHUNK))
        .returning('storageKey')
        .execute();
      keys.push(...rows.map((r) => r.storageKey));
    }
    return keys;
  }

  /** Deletes the row whose blob became the file's content again: its key must not be released. */
  async detach(id: string): Promise<void> {
    await this.db.deleteFrom('fileVersion').where('id', '=', id).execute();
  }

  /** Blob keys of the versions of these files (about to be deleted for good, their rows going by cascade). */
  async keysOfFiles(fileIds: string[]): Promise<string[]> {
    const keys: string[] = [];
    for (let i = 0; i < fileIds.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('fileVersion')
        .select('storageKey')
        .where('fileId', 'in', fileIds.slice(i, i + CHUNK))
        .execute();
      keys.push(...rows.map((r) => r.storageKey));
    }
    return keys;
  }

  /** Blob keys of the versions of every file in these folders. */
  async keysInFolders(folderIds: string[]): Promise<string[]> {
    const keys: string[] = [];
    for (let i = 0; i < folderIds.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('fileVersion')
        .innerJoin('file', 'file.id', 'fileVersion.fileId')
        .select('fileVersion.storageKey')
        .where('file.folderId', 'in', folderIds.slice(i, i + CHUNK))
        .execute();
      keys.push(...rows.map((r) => r.storageKey));
    }
    return keys;
  }

  /** Bytes the owner's versions take. */
  async bytesOf(ownerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('fileVersion')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('n'))
      .where('ownerId', '=', ownerId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The owner's oldest versions, oldest first: the first to go when versions need room. */
  oldestOf(ownerId: string, limit: number): Promise<Pick<FileVersionRow, 'id' | 'fileId' | 'size' | 'uploadedAt'>[]> {
    return this.db
      .selectFrom('fileVersion')
      .select(['id', 'fileId', 'size', 'uploadedAt'])
      .where('ownerId', '=', ownerId)
      .orderBy('uploadedAt', 'asc')
      .orderBy('id', 'asc')
      .limit(limit)
      .execute();
  }

  /**
   * Files that have versions stored before `before` (what the thinning job walks), with their
   * owners, after `afterFileId`, in id order.
   */
  filesWithVersionsBefore(before: number, afterFileId: string | null, limit: number): Promise<{ fileId: string; ownerId: string }[]> {
    return this.db
      .selectFrom('fileVersion')
      .select(['fileId', 'ownerId'])
      .distinct()
      .where('uploadedAt', '<', before)
      .$if(afterFileId !== null, (q) => q.where('fileId', '>', afterFileId!))
      .orderBy('fileId')
      .limit(limit)
      .execute();
  }

  /** The e-mails of the accounts that stored versions; an account deleted (or being deleted) is left out. */
  async authorEmails(accountIds: string[]): Promise<Map<string, string>> {
    const emails = new Map<string, string>();
    const ids = [...new Set(accountIds)];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('account')
        .select(['id', 'email'])
        .where('id', 'in', ids.slice(i, i + CHUNK))
        .where('deletedAt', 'is', null)
        .execute();
      for (const row of rows) emails.set(row.id, row.email);
    }
    return emails;
  }

  /**
   * Files of the owner whose content changed after `at` (or that first appeared after it), in id
   * order after `afterId`: the only ones a restore "as it was at" may have to change. `folderIds`:
   * the folders to look in (at most a few hundred, the caller's chunk); null: the whole drive.
   */
  async filesChangedAfter(
    ownerId: string,
    folderIds: string[] | null,
    at: number,
    afterId: string | null,
    limit: number,
  ): Promise<string[]> {
    if (folderIds !== null && folderIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('file')
      .select('id')
      .where('ownerId', '=', ownerId)
      .where('uploadedAt', '>', at)
      .$if(folderIds !== null, (q) => q.where('folderId', 'in', folderIds!))
      .$if(afterId !== null, (q) => q.where('id', '>', afterId!))
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Items of the owner that existed at `at` and were trashed after it, in these folders (files)
   * or among them (folders); null: the whole drive. With the folder each went to the trash with.
   */
  async trashedAfter(
    ownerId: string,
    folderIds: string[] | null,
    at: number,
  ): Promise<{ files: TrashedItem[]; folders: TrashedItem[]; newFiles: string[] }> {
    const files: TrashedItem[] = [];
    const folders: TrashedItem[] = [];
    const newFiles: string[] = [];
    const chunks = folderIds === null ? [null] : chunked(folderIds);
    for (const chunk of chunks) {
      const fileRows = await this.db
        .selectFrom('file')
        .select(['id', 'trashedVia', 'trashedAt', 'createdAt'])
        .where('ownerId', '=', ownerId)
        .where('trashedAt', '>', at)
        .$if(chunk !== null, (q) => q.where('folderId', 'in', chunk!))
        .execute();
      for (const row of fileRows) {
        if (row.createdAt <= at) files.push({ id: row.id, trashedVia: row.trashedVia, trashedAt: row.trashedAt! });
        else newFiles.push(row.id);
      }
      const folderRows = await this.db
        .selectFrom('folder')
        .select(['id', 'trashedVia', 'trashedAt'])
        .where('ownerId', '=', ownerId)
        .where('trashedAt', '>', at)
        .where('createdAt', '<=', at)
        .$if(chunk !== null, (q) => q.where('id', 'in', chunk!))
        .execute();
      for (const row of folderRows) folders.push({ id: row.id, trashedVia: row.trashedVia, trashedAt: row.trashedAt! });
    }
    return { files, folders, newFiles };
  }

  /** Keeps an earlier time of a content the file is about to have again (the row of that time goes). */
  async insertPeriod(row: FileContentPeriodTable): Promise<void> {
    await this.db.insertInto('fileContentPeriod').values(row).execute();
  }

  /** The recorded earlier time of a content that covers `at`, if any. */
  periodAt(fileId: string, at: number): Promise<FileContentPeriodTable | undefined> {
    return this.db
      .selectFrom('fileContentPeriod')
      .selectAll()
      .where('fileId', '=', fileId)
      .where('fromAt', '<=', at)
      .where('untilAt', '>', at)
      .orderBy('fromAt', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The version of the file whose blob is `storageKey`, if it is still kept. */
  findByKey(fileId: string, storageKey: string): Promise<FileVersionRow | undefined> {
    return this.db
      .selectFrom('fileVersion')
      .selectAll()
      .where('fileId', '=', fileId)
      .where('storageKey', '=', storageKey)
      .executeTakeFirst();
  }
}

/** A trashed file or folder, and the folder whose trashing took it along (null: trashed itself). */
export interface TrashedItem {
  id: string;
  trashedVia: string | null;
  trashedAt: number;
}

function chunked<T>(items: T[]): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) chunks.push(items.slice(i, i + CHUNK));
  return chunks;
}
