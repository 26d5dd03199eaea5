import { sql } from 'kysely';
import type { Db } from '../database.js';
import type { IntegrityStateTable } from '../schema.js';

export type IntegrityStateRow = IntegrityStateTable;

/** What the check needs of a file row to verify its blob. */
export interface FileBlobRow {
  id: string;
  storageKey: string;
  wrappedKey: string;
  size: number;
  crc32: number | null;
  sha256: string;
}

/** What the check needs of a version row to verify its blob. */
export interface VersionBlobRow extends FileBlobRow {
  fileId: string;
}

/** A file's stored thumbnail and preview, as recorded by the thumbnail job. */
export interface MediaBlobRow {
  fileId: string;
  thumbnailId: string | null;
  thumbnailWrappedKey: string | null;
  thumbnailSize: number | null;
  previewId: string | null;
  previewWrappedKey: string | null;
  previewSize: number | null;
}

/** A video's stored rendition. */
export interface RenditionBlobRow {
  fileId: string;
  blobKey: string;
  wrappedKey: string;
  size: number;
  sha256: string;
}

/** A motion photo's clip, stored apart from the photo. */
export interface MotionClipBlobRow {
  fileId: string;
  clipId: string;
  wrappedKey: string;
  size: number;
  sha256: string;
}

const FILE_BLOB_COLUMNS = ['id', 'storageKey', 'wrappedKey', 'size', 'crc32', 'sha256'] as const;
const VERSION_BLOB_COLUMNS = [...FILE_BLOB_COLUMNS, 'fileId'] as const;

const MEDIA_COLUMNS = [
  'fileMedia.fileId',
  'fileMedia.thumbnailId',
  'fileMedia.thumbnailWrappedKey',
  'fileMedia.thumbnailSize',
  'fileMedia.previewId',
  'fileMedia.previewWrappedKey',
  'fileMedia.previewSize',
] as const;

/** Every key the check looks up comes in pages of at most this many (bound parameters). */
export const KEY_PAGE = 500;

/** The queries of the integrity check and scrub: rows against stored keys, and their progress. */
export class IntegrityRepository {
  constructor(private readonly db: Db) {}

  /** Files in id order after `after`: a walk that resumes exactly where it stopped. */
  async filesAfter(after: string | null, limit: number): Promise<FileBlobRow[]> {
    let query = this.db.selectFrom('file').select(FILE_BLOB_COLUMNS).orderBy('id').limit(limit);
    if (after !== null) query = query.where('id', '>', after);
    const rows = await query.execute();
    return rows.map((r) => ({ ...r, size: Number(r.size) }));
  }

  findFile(id: string): Promise<FileBlobRow | undefined> {
    return this.db.selectFrom('file').select(FILE_BLOB_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /** Versions in id order after `after`. */
  async versionsAfter(after: string | null, limit: number): Promise<VersionBlobRow[]> {
    let query = this.db.selectFrom('fileVersion').select(VERSION_BLOB_COLUMNS).orderBy('id').limit(limit);
    if (after !== null) query = query.where('id', '>', after);
    const rows = await query.execute();
    return rows.map((r) => ({ ...r, size: Number(r.size), crc32: r.crc32 === null ? null : Number(r.crc32) }));
  }

  findVersion(id: string): Promise<VersionBlobRow | undefined> {
    return this.db.selectFrom('fileVersion').select(VERSION_BLOB_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /** Keeps the CRC-32 of a file stored before uploads kept one, unless its content changed since it was read. */
  async keepCrc32(id: string, storageKey: string, crc32: number): Promise<void> {
    await this.db
      .updateTable('file')
      .set({ crc32 })
      .where('id', '=', id)
      .where('storageKey', '=', storageKey)
      .where('crc32', 'is', null)
      .execute();
  }

  async mediaOf(fileIds: string[]): Promise<MediaBlobRow[]> {
    if (fileIds.length === 0) return [];
    const rows = await this.db.selectFrom('fileMedia').select(MEDIA_COLUMNS).where('fileId', 'in', fileIds).execute();
    return rows.map(numericMedia);
  }

  async renditionsOf(fileIds: string[]): Promise<RenditionBlobRow[]> {
    if (fileIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('fileRendition')
      .select(['fileId', 'blobKey', 'wrappedKey', 'size', 'sha256'])
      .where('fileId', 'in', fileIds)
      .where('blobKey', 'is not', null)
      .execute();
    return rows.flatMap((r) =>
      r.blobKey && r.wrappedKey && r.size !== null && r.sha256
        ? [{ fileId: r.fileId, blobKey: r.blobKey, wrappedKey: r.wrappedKey, size: Number(r.size), sha256: r.sha256 }]
        : [],
    );
  }

  /** The clips cut out of these files (motion photos). */
  async motionClipsOf(fileIds: string[]): Promise<MotionClipBlobRow[]> {
    if (fileIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('fileMotion')
      .select(['fileId', 'clipId', 'clipWrappedKey', 'clipSize', 'clipSha256'])
      .where('fileId', 'in', fileIds)
      .where('clipId', 'is not', null)
      .execute();
    return rows.flatMap((r) =>
      r.clipId && r.clipWrappedKey && r.clipSize !== null && r.clipSha256
        ? [{ fileId: r.fileId, clipId: r.clipId, wrappedKey: r.clipWrappedKey, size: Number(r.clipSize), sha256: r.clipSha256 }]
        : [],
    );
  }

  /** Media rows whose file is gone (foreign keys normally cascade; a restore or manual edit may not). */
  async orphanMediaAfter(after: string | null, limit: number): Promise<MediaBlobRow[]> {
    let query = this.db
      .selectFrom('fileMedia')
      .leftJoin('file', 'file.id', 'fileMedia.fileId')
      .select(MEDIA_COLUMNS)
      .where('file.id', 'is', null)
      .orderBy('fileMedia.fileId')
      .limit(limit);
    if (after !== null) query = query.where('fileMedia.fileId', '>', after);
    const rows = await query.execute();
    return rows.map(numericMedia);
  }

  /** Deletes the media row only while its file is still absent; true when it did. */
  async deleteOrphanMedia(fileId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('fileMedia')
      .where('fileId', '=', fileId)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('file').select('file.id').where('file.id', '=', fileId))))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Which of `keys` a file, a version, a thumbnail, a preview, a video rendition or a resumable upload refers to. */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < keys.length; i += KEY_PAGE) {
      const page = keys.slice(i, i + KEY_PAGE);
      const queries = [
        // One statement, one snapshot: a content moving between a file and its versions (a
        // replacement, a restore) is seen in one of the two, never in neither.
        this.db
          .selectFrom('file')
          .select('storageKey as key')
          .where('storageKey', 'in', page)
          .unionAll(this.db.selectFrom('fileVersion').select('storageKey as key').where('storageKey', 'in', page)),
        this.db.selectFrom('fileMedia').select('thumbnailId as key').where('thumbnailId', 'in', page),
        this.db.selectFrom('fileMedia').select('previewId as key').where('previewId', 'in', page),
        this.db.selectFrom('fileRendition').select('blobKey as key').where('blobKey', 'in', page),
        this.db.selectFrom('fileMotion').select('clipId as key').where('clipId', 'in', page),
        this.db.selectFrom('tusUpload').select('storageKey as key').where('storageKey', 'in', page),
      ];
      for (const query of queries) for (const row of await query.execute()) if (row.key) found.add(row.key);
    }
    return found;
  }

  /** Keys waiting in blob.delete jobs that have not given up: already on their way out. */
  async keysPendingDelete(): Promise<Set<string>> {
    const keys = new Set<string>();
    const rows = await this.db
      .selectFrom('job')
      .select('payload')
      .where('name', '=', 'blob.delete')
      .where('failedAt', 'is', null)
      .execute();
    for (const row of rows) {
      const payload = JSON.parse(row.payload) as { keys?: unknown };
      if (Array.isArray(payload.keys)) for (const key of payload.keys) if (typeof key === 'string') keys.add(key);
    }
    return keys;
  }

  getState(name: string): Promise<IntegrityStateRow | undefined> {
    return this.db.selectFrom('integrityState').selectAll().where('name', '=', name).executeTakeFirst();
  }

  async saveState(row: IntegrityStateRow): Promise<void> {
    await this.db
      .insertInto('integrityState')
      .values(row)
      .onConflict((oc) => oc.column('name').doUpdateSet({ phase: row.phase, cursor: row.cursor, data: row.data, updatedAt: row.updatedAt }))
      .execute();
  }

  /** Jobs waiting (due or not), running (leased), and given up on. */
  async jobCounts(now: number): Promise<{ pending: number; running: number; failed: number }> {
    const row = await this.db
      .selectFrom('job')
      .select([
        sql<number>`sum(case when failed_at is null and (locked_until is null or locked_until < ${now}) then 1 else 0 end)`.as('pending'),
        sql<number>`sum(case when failed_at is null and locked_until >= ${now} then 1 else 0 end)`.as('running'),
        sql<number>`sum(case when failed_at is not null then 1 else 0 end)`.as('failed'),
      ])
      .executeTakeFirstOrThrow();
    return { pending: Number(row.pending ?? 0), running: Number(row.running ?? 0), failed: Number(row.failed ?? 0) };
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }
}

function numericMedia(row: MediaBlobRow): MediaBlobRow {
  return {
    ...row,
    thumbnailSize: row.thumbnailSize === null ? null : Number(row.thumbnailSize),
    previewSize: row.previewSize === null ? null : Number(row.previewSize),
  };
}
