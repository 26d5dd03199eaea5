import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

/**
 * A counter per account that changes with everything the owner's list answers and user answer show
 * (files, folders, the account's e-mail and verification), bumped by triggers in the same
 * transaction as the change, whoever makes it: any server process, a job, a tool, a hand-written
 * statement. A server keeps an answer only together with the counter it read before computing it,
 * so an answer is reused only while nothing it shows can have changed.
 *
 * An account without a row is at version 0; the first change makes the row at 1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('drive_version')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  if (isPostgres(db)) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

const SQLITE_BUMP = (owner: string) => `INSERT INTO drive_version (account_id, version) VALUES (${owner}, 1)
  ON CONFLICT (account_id) DO UPDATE SET version = version + 1;`;

/** SQLite has row triggers only: each changed row bumps its owner (about a microsecond a row). */
async function sqliteTriggers(db: Kysely<unknown>): Promise<void> {
  for (const [table, owner] of [
    ['file', 'owner_id'],
    ['folder', 'owner_id'],
  ] as const) {
    await sql
      .raw(`CREATE TRIGGER ${table}_drive_version_insert AFTER INSERT ON ${table} BEGIN ${SQLITE_BUMP(`new.${owner}`)} END`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER ${table}_drive_version_delete AFTER DELETE ON ${table} BEGIN ${SQLITE_BUMP(`old.${owner}`)} END`)
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER ${table}_drive_version_update AFTER UPDATE ON ${table} BEGIN
          ${SQLITE_BUMP(`new.${owner}`)}
          INSERT INTO drive_version (account_id, version) SELECT old.${owner}, 1 WHERE old.${owner} <> new.${owner}
            ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
        END`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `CREATE TRIGGER account_drive_version_update AFTER UPDATE OF email, email_verified ON account
        WHEN old.email IS NOT new.email OR old.email_verified IS NOT new.email_verified
        BEGIN ${SQLITE_BUMP('new.id')} END`,
    )
    .execute(db);
}

/**
 * PostgreSQL: statement triggers note the owners a statement touched (one row per owner and
 * transaction, however many rows changed) and a deferred trigger turns each note into one bump at
 * commit. Bumping right away would hold the counter's row lock from the first change to the end of
 * the transaction, and a transaction waiting for a file row while holding it could deadlock with
 * one holding that file row and waiting for the counter; at commit nothing is waited for after it.
 */
async function postgresTriggers(db: Kysely<unknown>): Promise<void> {
  // Notes live only inside their transaction (the deferred trigger deletes them): nothing to log or keep.
  await sql`CREATE UNLOGGED TABLE drive_change (txid bigint NOT NULL, account_id text NOT NULL, PRIMARY KEY (txid, account_id))`.execute(
    db,
  );
  await sql`CREATE FUNCTION drive_change_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO drive_version (account_id, version) VALUES (NEW.account_id, 1)
        ON CONFLICT (account_id) DO UPDATE SET version = drive_version.version + 1;
      DELETE FROM drive_change WHERE txid = NEW.txid AND account_id = NEW.account_id;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE CONSTRAINT TRIGGER drive_change_apply AFTER INSERT ON drive_change
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION drive_change_apply()`.execute(db);

  const note = (name: string, owners: string) =>
    sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO drive_change (txid, account_id) SELECT DISTINCT txid_current(), owner FROM (${owners}) AS changed
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$`);
  await note('drive_change_inserted', 'SELECT owner_id AS owner FROM new_rows').execute(db);
  await note('drive_change_deleted', 'SELECT owner_id AS owner FROM old_rows').execute(db);
  await note('drive_change_updated', 'SELECT owner_id AS owner FROM new_rows UNION SELECT owner_id FROM old_rows').execute(db);
  await note(
    'drive_change_account_updated',
    `SELECT n.id AS owner FROM new_rows n JOIN old_rows o ON o.id = n.id
       WHERE n.email IS DISTINCT FROM o.email OR n.email_verified IS DISTINCT FROM o.email_verified`,
  ).execute(db);

  for (const table of ['file', 'folder']) {
    await sql
      .raw(
        `CREATE TRIGGER ${table}_drive_version_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows
          FOR EACH STATEMENT EXECUTE FUNCTION drive_change_inserted()`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER ${table}_drive_version_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows
          FOR EACH STATEMENT EXECUTE FUNCTION drive_change_deleted()`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER ${table}_drive_version_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
          FOR EACH STATEMENT EXECUTE FUNCTION drive_change_updated()`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `CREATE TRIGGER account_drive_version_update AFTER UPDATE ON account REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION drive_change_account_updated()`,
    )
    .execute(db);
}
