import SQLite from 'better-sqlite3';
import { chmodSync } from 'node:fs';
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { Database } from './schema.js';
import { DatabaseUnavailableError, isSqliteBusy, pgOutageTest, withOutageErrors } from './db-errors.js';

export type Db = Kysely<Database>;
export type Dialect = DatabaseConfig['driver'];

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

const PG_INT8 = 20;
const STATEMENT_TIMEOUT_MS = 30_000;
/** A server that takes new connections but never answers them fails a request with 503 after this, instead of hanging it. */
const CONNECT_TIMEOUT_MS = 10_000;

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  // An outage (PostgreSQL out of reach, SQLite locked by another process past the busy timeout)
  // surfaces as DatabaseUnavailableError, a 503; the pool reconnects by itself when it can.
  const sqlite = config.driver === 'sqlite' ? openSqlite(config.path) : undefined;
  const dialect =
    config.driver === 'sqlite'
      ? withOutageErrors(new SqliteDialect({ database: withStatementCache(sqlite!) }), isSqliteBusy)
      : withOutageErrors(new PostgresDialect({ pool: openPgPool(config.url) }), pgOutageTest(loadPg().DatabaseError));
  const db = new Kysely<Database>({ dialect, plugins: [new CamelCasePlugin()] });
  if (sqlite) rowReaders.set(db, arrayRowReader(db, sqlite));
  return { db, dialect: config.driver, close: () => db.destroy() };
}

/** Runs a compiled SELECT and answers its rows as arrays of column values, in the order selected. */
export type ArrayRowReader = (sql: string, parameters: readonly unknown[]) => Promise<unknown[][]>;

const rowReaders = new WeakMap<Db, ArrayRowReader>();
/** Distinct statements kept prepared for array rows: a few hot queries use them. */
const ARRAY_STATEMENTS = 100;

/**
 * On SQLite, a way to read a hot query's rows as arrays rather than objects: better-sqlite3 builds
 * a row object key by key, which cost more than the rest of reading a page of 50 files (150 µs
 * against 70). Undefined on PostgreSQL and for a transaction, whose queries stay its own.
 */
export function arrayRowReaderOf(db: Db): ArrayRowReader | undefined {
  return rowReaders.get(db);
}

function arrayRowReader(db: Db, sqlite: SQLite.Database): ArrayRowReader {
  // Statements of its own, not from the query builder's cache: `raw` changes a statement, and the
  // builder's are shared.
  const prepare = SQLite.prototype.prepare.bind(sqlite);
  const statements = new Map<string, SQLite.Statement>();
  const statementOf = (sql: string): SQLite.Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= ARRAY_STATEMENTS) statements.delete(statements.keys().next().value!);
      statement = prepare(sql).raw(true);
      statements.set(sql, statement);
    }
    return statement;
  };
  const read = (sql: string, parameters: readonly unknown[]): unknown[][] => {
    try {
      return statementOf(sql).all(parameters) as unknown[][];
    } catch (err) {
      throw isSqliteBusy(err) ? new DatabaseUnavailableError(err) : err;
    }
  };
  // Through the builder's one connection, so the read waits for a transaction under way as the
  // builder's own queries do, and never sees its uncommitted rows.
  return (sql, parameters) => db.connection().execute(async () => read(sql, parameters));
}

function openSqlite(file: string): SQLite.Database {
  const sqlite = new SQLite(file);
  // Password hashes, link tokens and names: readable by the server's user only (WAL files follow).
  chmodSync(file, 0o600);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return sqlite;
}

/** Distinct statements kept prepared; the app issues a few hundred shapes of query. */
const STATEMENT_CACHE_SIZE = 1_000;

/**
 * Reuses prepared statements: the query builder prepares every query it runs, and preparing
 * (parsing and planning the SQL) cost about as much as running the small queries of a request.
 * A statement still busy (an unfinished iteration) is never handed out twice.
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, SQLite.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) return cached;
    const statement = prepare(source);
    if (!cached) {
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  }) as typeof sqlite.prepare;
  return sqlite;
}

/** The PostgreSQL driver loads only on servers configured for it. */
function loadPg(): typeof pg {
  return createRequire(import.meta.url)('pg') as typeof pg;
}

function openPgPool(url: string): pg.Pool {
  const driver = loadPg();
  const pool = new driver.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A runaway query (a bug, a damaged tree) gives its connection back instead of pinning it forever.
    statement_timeout: STATEMENT_TIMEOUT_MS,
    // Epoch-millisecond columns are bigint; they fit a JS number exactly.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8 ? (v: string) => Number(v) : driver.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server drops (restart, failover, admin command) must not crash the
  // process: the pool discards it and the next query opens a fresh one.
  pool.on('error', (err) => {
    process.emitWarning(`PostgreSQL dropped an idle connection: ${err.message}`);
  });
  // The pool listens for errors only on idle connections. One that breaks while a query holds it
  // fails that query (a 503) and is dropped on release, but also emits 'error': unheard, that
  // would end the process.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}
