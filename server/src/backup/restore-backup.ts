import { randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { createBlobStore } from '../storage/create-stores.js';
import { copyBlobIn, forEachLimited, verifyBlob } from './blob-copy.js';
import { BackupError, BLOB_INDEX_FILE, hashFile, readBlobIndex, readManifest, type Manifest } from './manifest.js';
import { pgRestoreCommand } from './pg-command.js';
import { planKeys, writeSecretsFile } from './restore-keys.js';
import { clearTarget, occupiedParts } from './restore-target.js';
import { runTool } from './run-tool.js';
import { pgSession, reconcileRestored, sqliteSession, type SqlSession } from './sql-session.js';

export interface RestoreOptions {
  force: boolean;
  /** A kept secrets.json (or JSON with encryptionKey) when the backup holds no key. */
  keyFile: string | null;
}

export interface RestoreResult {
  manifest: Manifest;
  blobs: number;
  bytes: number;
  droppedFiles: number;
  /** Versions deleted on the drive while the backup ran (or with a file that was). */
  droppedVersions: number;
  wroteSecretsFile: boolean;
  sessionsEnd: boolean;
}

const VERIFY_CONCURRENCY = 4;

async function verifyPart(dir: string, part: { file: string; size: number; sha256: string }): Promise<void> {
  const got = await hashFile(path.join(dir, part.file)).catch(() => null);
  if (!got) throw new BackupError(`The backup is incomplete: ${part.file} is missing`);
  if (got.sha256 !== part.sha256 || got.size !== part.size) {
    throw new BackupError(`The backup is damaged: ${part.file} does not match its SHA-256 in the manifest`);
  }
}

/**
 * Rebuilds a server's database and store from a backup. Everything is checked first (every
 * hash, the key, the target being empty), so a damaged backup or a wrong key changes nothing.
 * Blobs go in before the database, so no restored row ever names bytes not yet there.
 */
export async function restoreBackup(config: Config, dir: string, options: RestoreOptions): Promise<RestoreResult> {
  const manifest = await readManifest(dir);
  if (manifest.database.kind !== config.db.driver) {
    throw new BackupError(
      manifest.database.kind === 'postgres'
        ? 'This backup holds a PostgreSQL database: set DATABASE_URL to the (empty) database to restore into'
        : 'This backup holds a SQLite database: unset DATABASE_URL to restore it into DATA_DIR',
    );
  }
  await verifyPart(dir, manifest.database);
  await verifyPart(dir, manifest.blobs.index);
  if (manifest.encryption.masterKey) await verifyPart(dir, manifest.encryption.masterKey);
  const index = await readBlobIndex(path.join(dir));
  if (index.length !== manifest.blobs.count)
    throw new BackupError(`The backup is damaged: ${BLOB_INDEX_FILE} does not list ${manifest.blobs.count} blobs`);
  const keys = planKeys(config, dir, manifest, options.keyFile);
  await forEachLimited(index, VERIFY_CONCURRENCY, (entry) => verifyBlob(dir, entry));

  const store = createBlobStore(config.storage);
  try {
    const occupied = await occupiedParts(
      config,
      store,
      index.slice(0, 3).map((e) => e.key),
    );
    if (occupied.length > 0 && !options.force) {
      throw new BackupError(
        `The target is not empty (${occupied.join('; ')}): restore into a fresh DATA_DIR/database, or add --force to replace it`,
      );
    }
    if (occupied.length > 0) await clearTarget(config);
    await forEachLimited(index, VERIFY_CONCURRENCY, (entry) => copyBlobIn(store, dir, entry));
  } finally {
    await store.close();
  }
  const { droppedFiles, droppedVersions, strayKeys } = await restoreDatabase(config, dir, manifest);
  if (strayKeys.length > 0) {
    const cleanup = createBlobStore(config.storage);
    try {
      for (const key of strayKeys) await cleanup.delete(key);
    } finally {
      await cleanup.close();
    }
  }
  if (keys.writeSecretsFile) await writeSecretsFile(config.dataDir, keys.secrets);
  return {
    manifest,
    blobs: index.length,
    bytes: manifest.blobs.bytes,
    droppedFiles,
    droppedVersions,
    wroteSecretsFile: keys.writeSecretsFile,
    sessionsEnd: keys.sessionsEnd,
  };
}

async function restoreDatabase(config: Config, dir: string, manifest: Manifest): Promise<Awaited<ReturnType<typeof reconcileRestored>>> {
  const source = path.join(dir, manifest.database.file);
  let session: SqlSession;
  if (config.db.driver === 'sqlite') {
    await mkdir(path.dirname(config.db.path), { recursive: true, mode: 0o700 });
    const draft = `${config.db.path}.${randomBytes(4).toString('hex')}.restore`;
    try {
      await copyFile(source, draft);
      await chmod(draft, 0o600);
      await rename(draft, config.db.path);
    } finally {
      await rm(draft, { force: true });
    }
    session = sqliteSession(config.db.path);
  } else {
    await runTool(pgRestoreCommand(config.db.url, source));
    session = await pgSession(config.db.url);
  }
  try {
    return await reconcileRestored(session, manifest.blobs.gone);
  } finally {
    await session.close();
  }
}
