import SQLite from 'better-sqlite3';
import { createRequire } from 'node:module';
import type pg from 'pg';

/**
 * The few statements backup and restore run, on a SQLite file or one PostgreSQL connection.
 * Backup needs one connection inside the exported snapshot pg_dump reads, which the app's pooled
 * query builder cannot give, so these use the drivers directly (plain SQL valid on both).
 */
export interface SqlSession {
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

export function sqliteSession(file: string, options: { readonly?: boolean } = {}): SqlSession {
  const db = new SQLite(file, { fileMustExist: true, readonly: options.readonly ?? false });
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return {
    all: <T>(sql: string, params: unknown[] = []) => Promise.resolve(db.prepare(sql).all(...params) as T[]),
    run: (sql: string, params: unknown[] = []) => {
      db.prepare(sql).run(...params);
      return Promise.resolve();
    },
    close: () => Promise.resolve(void db.close()),
  };
}

export function loadPg(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}

export async function pgSession(url: string): Promise<SqlSession & { client: pg.Client }> {
  const client = new (loadPg().Client)({ connectionString: url });
  await client.connect();
  // `?` placeholders, as SQLite takes them, become PostgreSQL's numbered ones.
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    client,
    all: async <T>(sql: string, params: unknown[] = []) => (await client.query(numbered(sql), params)).rows as T[],
    run: async (sql: string, params: unknown[] = []) => {
      await client.query(numbered(sql), params);
    },
    close: () => client.end(),
  };
}

/** Every blob key the database refers to: file contents, their earlier versions, thumbnails, previews and video renditions. */
export async function referencedBlobKeys(session: SqlSession): Promise<string[]> {
  const rows = await session.all<{ key: string }>(
    `SELECT storage_key AS key FROM file
     UNION SELECT storage_key AS key FROM file_version
     UNION SELECT thumbnail_id AS key FROM file WHERE thumbnail_id IS NOT NULL
     UNION SELECT thumbnail_id AS key FROM file_media WHERE thumbnail_id IS NOT NULL
     UNION SELECT preview_id AS key FROM file_media WHERE preview_id IS NOT NULL
     UNION SELECT blob_key AS key FROM file_rendition WHERE blob_key IS NOT NULL
     UNION SELECT clip_id AS key FROM file_motion WHERE clip_id IS NOT NULL`,
  );
  return rows.map((r) => r.key).sort();
}

export async function isStillReferenced(session: SqlSession, key: string): Promise<boolean> {
  const rows = await session.all(
    `SELECT 1 AS hit FROM file WHERE storage_key = ? OR thumbnail_id = ?
     UNION ALL SELECT 1 AS hit FROM file_version WHERE storage_key = ?
     UNION ALL SELECT 1 AS hit FROM file_media WHERE thumbnail_id = ? OR preview_id = ?
     UNION ALL SELECT 1 AS hit FROM file_rendition WHERE blob_key = ?
     UNION ALL SELECT 1 AS hit FROM file_motion WHERE clip_id = ?`,
    [key, key, key, key, key, key, key],
  );
  return rows.length > 0;
}

export async function rowCounts(session: SqlSession): Promise<{ accounts: number; folders: number; files: number; versions: number }> {
  const count = async (table: string) =>
    Number((await session.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}`))[0]?.n ?? 0);
  return {
    accounts: await count('account'),
    folders: await count('folder'),
    files: await count('file'),
    versions: await count('file_version'),
  };
}

/**
 * Brings a restored database in line with the restored store. Unfinished resumable uploads are not
 * in a backup (their client sends them again); rows whose blobs were deleted on the live drive
 * while the backup ran (files, versions) are dropped as the live drive dropped them, a dropped
 * file's versions with it (their restored bytes answered as `strayKeys`); job leases of the old process
 * end now rather than at their timeout.
 */
export async function reconcileRestored(
  session: SqlSession,
  goneKeys: string[],
): Promise<{ droppedFiles: number; droppedVersions: number; strayKeys: string[] }> {
  await session.run('DELETE FROM tus_upload WHERE file_id IS NULL');
  await session.run('UPDATE job SET locked_until = NULL, locked_by = NULL');
  let droppedFiles = 0;
  let droppedVersions = 0;
  // Restored bytes of versions whose file is dropped: its versions' rows go with it.
  const strayKeys: string[] = [];
  for (const key of goneKeys) {
    // A version deleted (thinned, deleted, or its file deleted) on the live drive meanwhile.
    const versions = await session.all<{ id: string }>('SELECT id FROM file_version WHERE storage_key = ?', [key]);
    for (const { id } of versions) await session.run('DELETE FROM file_version WHERE id = ?', [id]);
    droppedVersions += versions.length;
    const files = await session.all<{ id: string }>('SELECT id FROM file WHERE storage_key = ?', [key]);
    for (const { id } of files) {
      const kept = await session.all<{ id: string; key: string }>('SELECT id, storage_key AS key FROM file_version WHERE file_id = ?', [
        id,
      ]);
      for (const version of kept) await session.run('DELETE FROM file_version WHERE id = ?', [version.id]);
      droppedVersions += kept.length;
      strayKeys.push(...kept.map((v) => v.key));
      await session.run(`DELETE FROM search_entry WHERE item_type = 'file' AND item_id = ?`, [id]);
      await session.run('DELETE FROM file_media WHERE file_id = ?', [id]);
      await session.run('DELETE FROM file_rendition WHERE file_id = ?', [id]);
      await session.run('DELETE FROM drop_origin WHERE file_id = ?', [id]);
      await session.run('DELETE FROM file WHERE id = ?', [id]);
      droppedFiles++;
    }
    // A derived image alone: made again by the thumbnail backfill.
    await session.run('UPDATE file SET thumbnail_id = NULL WHERE thumbnail_id = ?', [key]);
    await session.run('DELETE FROM file_media WHERE thumbnail_id = ? OR preview_id = ?', [key, key]);
    // A rendition alone: the player asks for the video's state, which probes it again.
    await session.run('DELETE FROM file_rendition WHERE blob_key = ?', [key]);
    // A motion clip alone: the photo stays, without its motion.
    await session.run('DELETE FROM file_motion WHERE clip_id = ?', [key]);
  }
  return { droppedFiles, droppedVersions, strayKeys };
}
