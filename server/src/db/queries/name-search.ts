import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../database.js';

/** Shortest term the trigram indexes can answer; shorter ones fall back to a scan. */
const TRIGRAM = 3;

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * "name contains term", case-insensitively, through the trigram index of the dialect:
 * FTS5 (trigram tokenizer) on SQLite, pg_trgm on PostgreSQL. `term` is already lower-cased.
 */
export function nameContains(dialect: Dialect, table: 'file' | 'folder', term: string): RawBuilder<SqlBool> {
  {
    const column = sql.ref(`${table}.name_key`);
    if (dialect === 'postgres') return sql<SqlBool>`${column} like ${`%${escapeLike(term)}%`} escape '\\'`;
    if ([...term].length < TRIGRAM) return sql<SqlBool>`instr(${column}, ${term}) > 0`;
    const fts = sql.table(`${table}_name_fts`);
    const phrase = `"${term.replace(/"/g, '""')}"`;
    return sql<SqlBool>`${sql.ref(`${table}.rowid`)} in (select rowid from ${fts} where ${fts} match ${phrase})`;
  }
}
