import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, Dialect } from '../database.js';

/** Shortest term the trigram indexes can answer; shorter ones fall back to a scan. */
const TRIGRAM = 3;

/**
 * At most this many names (of every owner) containing a term make it a rare term on SQLite: a
 * list reads those rows by rowid and sorts them (about a millisecond per thousand) instead of
 * walking the owner's files in list order until a page of matches turns up, which for a rare term
 * reads every file of the owner (100 ms and more at 10^6 files).
 */
const RARE_MATCHES = 2000;

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function ftsPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/**
 * "name contains term", case-insensitively, through the trigram index of the dialect:
 * FTS5 (trigram tokenizer) on SQLite, pg_trgm on PostgreSQL. `term` is already lower-cased.
 *
 * On SQLite a term in many names (`common`, see isRareName) is matched on each row instead: the
 * list walks the owner's files in list order and finds a page of matches within a few hundred
 * rows, where the index would first gather every one of its tens of thousands of matches.
 */
export function nameContains(dialect: Dialect, table: 'file' | 'folder', term: string, common = false): RawBuilder<SqlBool> {
  {
    const column = sql.ref(`${table}.name_key`);
    if (dialect === 'postgres') return sql<SqlBool>`${column} like ${`%${escapeLike(term)}%`} escape '\\'`;
    if (common || [...term].length < TRIGRAM) return sql<SqlBool>`instr(${column}, ${term}) > 0`;
    const fts = sql.table(`${table}_name_fts`);
    return sql<SqlBool>`${sql.ref(`${table}.rowid`)} in (select rowid from ${fts} where ${fts} match ${ftsPhrase(term)})`;
  }
}

/**
 * Whether few names contain `term` (see RARE_MATCHES): counted in the trigram index, stopping
 * past the bound. Always false on PostgreSQL, whose planner estimates this itself from pg_trgm's
 * statistics, and for terms too short for the index.
 */
export async function isRareName(db: Db, dialect: Dialect, table: 'file' | 'folder', term: string): Promise<boolean> {
  if (dialect === 'postgres' || [...term].length < TRIGRAM) return false;
  const fts = sql.table(`${table}_name_fts`);
  const { rows } = await sql<{ n: number }>`select count(*) as n from (select 1 from ${fts} where ${fts} match ${ftsPhrase(term)} limit ${
    RARE_MATCHES + 1
  })`.execute(db);
  return Number(rows[0]?.n ?? 0) <= RARE_MATCHES;
}

/**
 * The owner filter of a list whose name filter is a rare term: `+owner_id` keeps SQLite from
 * walking an owner index in list order, so it reads the term's few matches by rowid instead.
 * Same rows, another plan.
 */
export function ownerOfRareMatch(table: 'file' | 'folder'): Expression<string> {
  return sql<string>`+${sql.ref(`${table}.owner_id`)}`;
}
