import { sql, type Kysely } from 'kysely';

/**
 * Fair job order: each job gets a place on a virtual clock of its lane (an account), so one
 * account's thousand jobs interleave with another's one instead of going first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('job')
    .addColumn('fair_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update job set fair_at = run_at`.execute(db);
  await db.schema.createIndex('job_fair_idx').on('job').columns(['failed_at', 'fair_at']).execute();
  await db.schema
    .createTable('job_lane')
    .addColumn('lane', 'text', (c) => c.primaryKey())
    .addColumn('fair_at', 'bigint', (c) => c.notNull())
    .execute();
}
