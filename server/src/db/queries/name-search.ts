import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, Dialect } from '../database.js';

/** Length of the index's tokens; a shorter term is matched by the trigrams that begin with it. */
const TRIGRAM = 3;

/**
 * What SQLite's name indexes add after each name key (2026_12_01_0900), so that every character
 * and pair of characters of a name begins a trigram. Names never hold control characters.
 */
const NAME_END = '\u0001';

const LAST_CHAR = '\u{10ffff}';

/**
 * At most this many names (of every owner) containing a term make it a rare term on SQLite: a
 * list reads those rows by rowid and sorts them (about a millisecond per thousand) instead of
 * walking the owner's files in list order until a page of matches turns up, which for a rare term
 * reads every file of the owner (100 ms and more at 10^6 files).
 */
const RARE_MATCHES = 2000;

/**
 * A term of one or two characters is first tried on this many of the owner's names. If the owner
 * has fewer, or one in a hundred of them contains it, walking the files finds a page within a few
 * thousand rows; listing the index's trigrams that begin with such a term would read most of it.
 */
const SAMPLE = 4000;
const DENSE_IN_SAMPLE = SAMPLE / 100;

/** A term in more trigrams than this (a single common letter) is matched row by row. */
const MAX_TRIGRAMS = 1000;

/**
 * Trigram-index phrases of which a name must contain one (an FTS5 query once joined by OR);
 * none means that no name contains the term.
 */
export type TrigramMatch = readonly string[];

function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The FTS5 query matching names that contain any of the phrases. */
function ftsQuery(match: TrigramMatch): string {
  return match.map((phrase) => `"${phrase.replace(/"/g, '""')}"`).join(' OR ');
}

function length(term: string): number {
  return [...term].length;
}

/** The whole term as one phrase, for a term the index's trigrams can spell out; null for a shorter one. */
export function trigramPhrase(term: string): TrigramMatch | null {
  return length(term) < TRIGRAM ? null : [term];
}

/**
 * "name contains term", case-insensitively (`term` is already lower-cased like the name key).
 * On PostgreSQL through pg_trgm; on SQLite through the trigram index when `match` is given,
 * otherwise by testing each row, which a list walking the owner's files in list order stops at a
 * page of matches (see rareNameMatch).
 */
export function nameContains(dialect: Dialect, table: 'file' | 'folder', term: string, match: TrigramMatch | null): RawBuilder<SqlBool> {
  const column = sql.ref(`${table}.name_key`);
  if (dialect === 'postgres') return sql<SqlBool>`${column} like ${`%${escapeLike(term)}%`} escape '\\'`;
  if (match === null) return sql<SqlBool>`instr(${column}, ${term}) > 0`;
  if (match.length === 0) return sql<SqlBool>`0`;
  const fts = sql.table(`${table}_name_fts`);
  return sql<SqlBool>`${sql.ref(`${table}.rowid`)} in (select rowid from ${fts} where ${fts} match ${ftsQuery(match)})`;
}

/**
 * The index query for a term in few names on SQLite (see RARE_MATCHES), counted in the trigram
 * index and stopping past the bound; null where a list should walk the owner's files instead: a
 * term in many names, and always on PostgreSQL, whose planner estimates this itself from
 * pg_trgm's statistics.
 */
export async function rareNameMatch(
  db: Db,
  dialect: Dialect,
  table: 'file' | 'folder',
  ownerId: string,
  term: string,
): Promise<TrigramMatch | null> {
  if (dialect === 'postgres') return null;
  if (term.includes(NAME_END)) return [];
  const match = trigramPhrase(term) ?? (await shortTermMatch(db, table, ownerId, term));
  if (match === null || match.length === 0) return match;
  const fts = sql.table(`${table}_name_fts`);
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from (select 1 from ${fts} where ${fts} match ${ftsQuery(match)} limit ${RARE_MATCHES + 1})`.execute(db);
  return Number(rows[0]?.n ?? 0) <= RARE_MATCHES ? match : null;
}

/** The trigrams that begin with a term of one or two characters, when the owner's names make them worth listing. */
async function shortTermMatch(db: Db, table: 'file' | 'folder', ownerId: string, term: string): Promise<TrigramMatch | null> {
  const t = sql.table(table);
  const { rows: sample } = await sql<{
    seen: number;
    hits: number | null;
  }>`select count(*) as seen, sum(instr(name_key, ${term}) > 0) as hits
    from (select name_key from ${t} where owner_id = ${ownerId} limit ${SAMPLE})`.execute(db);
  const { seen, hits } = sample[0] ?? { seen: 0, hits: 0 };
  if (Number(seen) < SAMPLE || Number(hits ?? 0) >= DENSE_IN_SAMPLE) return null;

  const vocab = sql.table(`${table}_name_vocab`);
  // Every trigram that begins with the term lies between the term and the term followed by the highest characters.
  const { rows } = await sql<{
    term: string;
  }>`select term from ${vocab} where term >= ${term} and term <= ${term + LAST_CHAR.repeat(TRIGRAM)} limit ${MAX_TRIGRAMS + 1}`.execute(db);
  return rows.length > MAX_TRIGRAMS ? null : rows.map((r) => r.term);
}

/**
 * The owner filter of a list whose name filter is a rare term: `+owner_id` keeps SQLite from
 * walking an owner index in list order, so it reads the term's few matches by rowid instead.
 * Same rows, another plan.
 */
export function ownerOfRareMatch(table: 'file' | 'folder'): Expression<string> {
  return sql<string>`+${sql.ref(`${table}.owner_id`)}`;
}
