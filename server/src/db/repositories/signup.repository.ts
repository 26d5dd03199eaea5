import { sql } from 'kysely';
import type { Db, Dialect } from '../database.js';

/** What sign-up asks of the accounts as a whole: whether any exists, and who is the first administrator. */
export class SignupRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  async hasAccount(): Promise<boolean> {
    return (await this.db.selectFrom('account').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  /**
   * Makes the account an administrator when it is the server's earliest and no administrator
   * exists yet, in one conditional update. On PostgreSQL the update runs under a transaction lock,
   * so racing sign-ups take turns and each sees the others' committed rows: exactly one wins, even
   * when the later insert carries the earlier time. SQLite runs one statement at a time anyway.
   */
  async claimFirstAdmin(accountId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('first-admin'))`.execute(trx);
      const result = await trx
        .updateTable('account')
        .set({ role: 'admin' })
        .where('id', '=', accountId)
        .where('id', '=', (eb) =>
          eb.selectFrom('account as first').select('first.id').orderBy('first.createdAt').orderBy('first.id').limit(1),
        )
        .where((eb) => eb.not(eb.exists(eb.selectFrom('account as admin').select('admin.id').where('admin.role', '=', 'admin'))))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
  }
}
