import type { Kysely } from 'kysely';

/**
 * Each file keeps the CRC-32 of its plaintext, computed at upload beside its SHA-256: a zip writes
 * one for every entry, and computing it there took about a seventh of the server's main thread
 * during a zip. Files stored before have none; a zip computes theirs as it goes. Adding a nullable
 * column rewrites no rows on either database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('file').addColumn('crc32', 'bigint').execute();
}
