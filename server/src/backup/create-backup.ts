import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { createBlobStore } from '../storage/create-stores.js';
import { copyBlobsOut } from './blob-copy.js';
import { snapshotDatabase } from './db-snapshot.js';
import {
  BackupError,
  BLOB_INDEX_FILE,
  hashFile,
  keyFingerprint,
  MANIFEST_FILE,
  MANIFEST_VERSION,
  SECRETS_FILE,
  type Manifest,
} from './manifest.js';
import { isStillReferenced, pgSession, sqliteSession, type SqlSession } from './sql-session.js';

export interface BackupOptions {
  includeMasterKey: boolean;
}

export const DATABASE_FILES = { sqlite: 'database.sqlite', postgres: 'database.pgdump' } as const;

/** Refuses to mix a backup into anything that already holds files. */
async function prepareDir(dir: string): Promise<void> {
  const entries = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw new BackupError(`Cannot read ${dir} (${err.code ?? String(err)})`);
  });
  if (entries && entries.length > 0) throw new BackupError(`${dir} is not empty: give a new or empty directory for the backup`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir leaves the mode of a directory that already existed as it was.
  await chmod(dir, 0o700);
}

function liveSession(config: Config): Promise<SqlSession> {
  return config.db.driver === 'sqlite' ? Promise.resolve(sqliteSession(config.db.path, { readonly: true })) : pgSession(config.db.url);
}

/**
 * An online backup: the database first (one consistent snapshot), then every blob that snapshot
 * refers to. A blob that vanished meanwhile is checked against the live database: if nothing
 * refers to it any more it was deleted after the snapshot (recorded as gone, its rows are dropped
 * on restore as they were on the live drive); if something still does, it was lost before the
 * backup began (recorded as missing and reported). The manifest is written last, so a backup that
 * stopped half-way has none and is refused by restore.
 */
export async function createBackup(config: Config, dir: string, options: BackupOptions): Promise<Manifest> {
  const started = Date.now();
  await prepareDir(dir);
  const kind = config.db.driver;
  const databaseFile = DATABASE_FILES[kind];
  const facts = await snapshotDatabase(config.db, path.join(dir, databaseFile));

  const store = createBlobStore(config.storage);
  let live: SqlSession | undefined;
  const copied = await copyBlobsOut(store, facts.keys, dir, async (key) => {
    live ??= await liveSession(config);
    return isStillReferenced(live, key);
  }).finally(async () => {
    await live?.close();
    await store.close();
  });

  await writeFile(path.join(dir, BLOB_INDEX_FILE), copied.entries.map((e) => `${JSON.stringify(e)}\n`).join(''), { mode: 0o600 });
  let masterKey: Manifest['encryption']['masterKey'] = null;
  if (options.includeMasterKey) {
    const secrets = { secretKey: config.secrets.secretKey, encryptionKey: config.secrets.encryptionKey.toString('base64') };
    await writeFile(path.join(dir, SECRETS_FILE), JSON.stringify(secrets, null, 2), { mode: 0o600 });
    masterKey = { file: SECRETS_FILE, ...(await hashFile(path.join(dir, SECRETS_FILE))) };
  }

  const manifest: Manifest = {
    format: 'nimbus-backup',
    version: MANIFEST_VERSION,
    createdAt: new Date(started).toISOString(),
    durationMs: 0,
    database: { kind, file: databaseFile, ...(await hashFile(path.join(dir, databaseFile))) },
    storage: { driver: config.storage.driver },
    counts: facts.counts,
    blobs: {
      index: { file: BLOB_INDEX_FILE, ...(await hashFile(path.join(dir, BLOB_INDEX_FILE))) },
      count: copied.entries.length,
      bytes: copied.entries.reduce((sum, e) => sum + e.size, 0),
      gone: copied.gone.sort(),
      missing: copied.missing.sort(),
    },
    encryption: { keyFingerprint: keyFingerprint(config.secrets.encryptionKey), masterKey },
  };
  manifest.durationMs = Date.now() - started;
  const draft = path.join(dir, `${MANIFEST_FILE}.${randomBytes(4).toString('hex')}.part`);
  await writeFile(draft, JSON.stringify(manifest, null, 2), { mode: 0o600 });
  await rename(draft, path.join(dir, MANIFEST_FILE));
  return manifest;
}
