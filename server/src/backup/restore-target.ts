import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import type { Config } from '../config.js';
import type { BlobStore } from '../storage/blob-store.js';
import { pgSession } from './sql-session.js';

/** Local-disk leftovers of a write that never finished are not data. */
const IGNORED_STORE_ENTRIES = new Set(['.tmp']);

/** What already holds data where the restore would write; empty when the target is fresh. */
export async function occupiedParts(config: Config, store: BlobStore, someKeys: string[]): Promise<string[]> {
  const found: string[] = [];
  if (config.db.driver === 'sqlite') {
    if (existsSync(config.db.path)) found.push(`the database ${config.db.path}`);
  } else {
    const session = await pgSession(config.db.url);
    try {
      const [row] = await session.all<{ n: string }>(
        'SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = current_schema()',
      );
      if (Number(row?.n ?? 0) > 0) found.push('the PostgreSQL database (it has tables)');
    } finally {
      await session.close();
    }
  }
  if (config.storage.driver === 'fs') {
    const entries = await readdir(config.storage.root).catch(() => [] as string[]);
    if (entries.some((e) => !IGNORED_STORE_ENTRIES.has(e))) found.push(`the file store ${config.storage.root}`);
  } else {
    // An object store cannot be listed through the store interface; objects of this very
    // backup already there show it was restored into before.
    for (const key of someKeys) {
      if (await store.stat(key)) {
        found.push(`the bucket ${config.storage.bucket}`);
        break;
      }
    }
  }
  return found;
}

/** Clears what --force overwrites: the database and the local file store (objects in a bucket are overwritten one by one). */
export async function clearTarget(config: Config): Promise<void> {
  if (config.db.driver === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) await rm(`${config.db.path}${suffix}`, { force: true });
  } else {
    const session = await pgSession(config.db.url);
    try {
      const [row] = await session.all<{ schema: string }>('SELECT current_schema() AS schema');
      const schema = `"${(row?.schema ?? 'public').replace(/"/g, '""')}"`;
      await session.run(`DROP SCHEMA ${schema} CASCADE`);
      await session.run(`CREATE SCHEMA ${schema}`);
    } finally {
      await session.close();
    }
  }
  if (config.storage.driver === 'fs') await rm(config.storage.root, { recursive: true, force: true });
}
