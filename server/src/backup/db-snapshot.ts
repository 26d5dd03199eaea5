import SQLite from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import type { DatabaseConfig } from '../config.js';
import { BackupError } from './manifest.js';
import { pgDumpCommand } from './pg-command.js';
import { runTool } from './run-tool.js';
import { pgSession, referencedBlobKeys, rowCounts, sqliteSession, type SqlSession } from './sql-session.js';

export interface SnapshotFacts {
  keys: string[];
  counts: { accounts: number; folders: number; files: number; versions: number };
}

async function factsOf(session: SqlSession): Promise<SnapshotFacts> {
  return { keys: await referencedBlobKeys(session), counts: await rowCounts(session) };
}

/** A consistent copy of the live database in `dest`, taken while the server writes, and what it refers to. */
export async function snapshotDatabase(config: DatabaseConfig, dest: string): Promise<SnapshotFacts> {
  return config.driver === 'sqlite' ? snapshotSqlite(config.path, dest) : snapshotPostgres(config.url, dest);
}

async function snapshotSqlite(livePath: string, dest: string): Promise<SnapshotFacts> {
  if (!existsSync(livePath)) throw new BackupError(`There is no database at ${livePath}: is DATA_DIR the server's?`);
  // The copy holds link tokens and password hashes: it is private from its first byte, and the
  // journal files SQLite makes beside it take its mode.
  await writeFile(dest, '', { mode: 0o600, flag: 'wx' });
  const live = new SQLite(livePath, { fileMustExist: true, readonly: true });
  try {
    live.pragma('busy_timeout = 5000');
    // A write by the server restarts an unfinished online backup; after the first step every
    // remaining page is copied in one go, which a WAL writer does not block.
    await live.backup(dest, { progress: ({ remainingPages }) => Math.max(remainingPages, 100) });
  } finally {
    live.close();
  }
  // The copy is one self-contained file: in WAL mode, as the live database is, even reading it
  // would leave -wal and -shm files beside it.
  const writable = new SQLite(dest, { fileMustExist: true });
  try {
    writable.pragma('journal_mode = DELETE');
  } finally {
    writable.close();
  }
  await chmod(dest, 0o600);
  const copy = sqliteSession(dest, { readonly: true });
  try {
    return await factsOf(copy);
  } finally {
    await copy.close();
  }
}

/**
 * pg_dump reads a snapshot this connection exports, and the blob keys are read in that same
 * snapshot, so the dump and the list of blobs to copy describe one moment.
 */
async function snapshotPostgres(url: string, dest: string): Promise<SnapshotFacts> {
  const session = await pgSession(url);
  try {
    await session.run('BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const [{ id }] = (await session.all<{ id: string }>('SELECT pg_export_snapshot() AS id')) as [{ id: string }];
    const dump = runTool(pgDumpCommand(url, id, dest));
    const [facts] = await Promise.all([factsOf(session), dump]);
    await session.run('COMMIT');
    return facts;
  } finally {
    await session.close();
  }
}
