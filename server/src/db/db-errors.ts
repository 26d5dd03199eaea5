import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { UnavailableError } from '../domain/errors.js';

/** The database cannot serve now (unreachable, restarting, locked past its wait); it may soon again. */
export class DatabaseUnavailableError extends UnavailableError {
  constructor(cause: unknown) {
    super('The database is not answering right now; try again shortly');
    this.cause = cause;
  }
}

/** Says whether a driver error means "the database is out of reach for now". */
export type OutageTest = (err: unknown) => boolean;

/**
 * SQLITE_BUSY (and its extended codes) once the busy timeout has passed: another process holds
 * the write lock. better-sqlite3 puts the SQLite result code on `code`.
 */
export function isSqliteBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_'));
}

/** SQLSTATEs of a server that is going away or refusing work: admin, crash or start-up shutdown, too many clients. */
const PG_OUTAGE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * A PostgreSQL failure of the connection rather than of the statement. The server reports every
 * statement error as a DatabaseError with a SQLSTATE, so an error of another kind from a query
 * (a reset socket, "connection terminated", a client that lost its connection) is the link
 * failing; a TypeError or RangeError is a bug in the caller and stays one.
 */
export function pgOutageTest(databaseError: abstract new (...args: never[]) => Error): OutageTest {
  return (err) => {
    if (err instanceof databaseError) {
      const state = (err as { code?: string }).code ?? '';
      return state.startsWith('08') || PG_OUTAGE_STATES.has(state);
    }
    return err instanceof Error && !(err instanceof TypeError) && !(err instanceof RangeError);
  };
}

/**
 * A dialect whose driver reports outages as DatabaseUnavailableError, so every query of every
 * route answers 503 while the database is away, with no per-call handling. Getting a connection
 * that fails is always an outage; a failed statement only when `isOutage` says so.
 */
export function withOutageErrors(dialect: Dialect, isOutage: OutageTest): Dialect {
  return {
    createDriver: () => new OutageReportingDriver(dialect.createDriver(), isOutage),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

type CompileQuery = QueryCompiler['compileQuery'];

class OutageReportingDriver implements Driver {
  /** Connections handed out, to the driver's own ones, which its other methods expect back. */
  private readonly inner = new WeakMap<DatabaseConnection, DatabaseConnection>();
  /** The wrapper of each driver connection, made once: a query on a reused connection allocates none. */
  private readonly wrappers = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly driver: Driver,
    private readonly isOutage: OutageTest,
  ) {}

  private translate(err: unknown): unknown {
    return err instanceof DatabaseUnavailableError || !this.isOutage(err) ? err : new DatabaseUnavailableError(err);
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw this.translate(err);
    }
  }

  private unwrap(connection: DatabaseConnection): DatabaseConnection {
    return this.inner.get(connection) ?? connection;
  }

  init(): Promise<void> {
    return this.guard(() => this.driver.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let connection: DatabaseConnection;
    try {
      connection = await this.driver.acquireConnection();
    } catch (err) {
      throw err instanceof TypeError ? err : new DatabaseUnavailableError(err);
    }
    const known = this.wrappers.get(connection);
    if (known) return known;
    const guard = <T>(work: () => Promise<T>) => this.guard(work);
    const translate = (err: unknown) => this.translate(err);
    const wrapped: DatabaseConnection = {
      executeQuery: <R>(query: CompiledQuery) => guard(() => connection.executeQuery<R>(query)),
      async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
        try {
          yield* connection.streamQuery<R>(query, chunkSize);
        } catch (err) {
          throw translate(err);
        }
      },
    };
    this.inner.set(wrapped, connection);
    this.wrappers.set(connection, wrapped);
    return wrapped;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.guard(() => this.driver.beginTransaction(this.unwrap(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.guard(() => this.driver.commitTransaction(this.unwrap(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.guard(() => this.driver.rollbackTransaction(this.unwrap(connection)));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    await this.guard(async () => this.driver.savepoint?.(this.unwrap(connection), name, compile));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    await this.guard(async () => this.driver.rollbackToSavepoint?.(this.unwrap(connection), name, compile));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery): Promise<void> {
    await this.guard(async () => this.driver.releaseSavepoint?.(this.unwrap(connection), name, compile));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.driver.releaseConnection(this.unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }
}
