import { PostgresAdapter, type Kysely } from 'kysely';

/** Migrations that need dialect-specific SQL (search indexes) branch on this. */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
