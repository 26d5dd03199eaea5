import type { AdminUserSort } from '@nimbus/common';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db, Dialect } from '../database.js';
import type { AccountRole } from '../schema.js';

/** An account with its counts and sizes, never the names of what it stores. */
export interface AdminUserRow {
  id: string;
  email: string;
  role: AccountRole;
  disabledAt: number | null;
  createdAt: number;
  lastActiveAt: number | null;
  quotaBytes: number | null;
  files: number;
  usedBytes: number;
  /** Two-factor sign-in is on. */
  twoFactor: boolean;
}

export interface AccountChange {
  role?: AccountRole;
  disabledAt?: number | null;
  deletedAt?: number;
  quotaBytes?: number | null;
}

export interface AdminUserListQuery {
  search?: string | undefined;
  sort: AdminUserSort;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** `%`, `_` and the escape character itself match only themselves in a LIKE pattern. */
function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const SORT_COLUMNS: Record<AdminUserSort, string> = {
  email: 'account.email_key',
  createdAt: 'account.created_at',
  // Never active sorts as the oldest, on both databases (they place nulls differently).
  lastActiveAt: 'coalesce(account.last_active_at, -1)',
  usedBytes: 'coalesce(usage.used_bytes, 0) + coalesce(kept.used_bytes, 0)',
  files: 'coalesce(usage.files, 0)',
};

/** 1 when the account has two-factor sign-in on, else 0, on both databases. */
const TWO_FACTOR_ON = sql`(select count(*) from two_factor where two_factor.account_id = account.id and two_factor.enabled_at is not null)`;

/** The admin area's reads and writes of accounts. */
export class AdminUserRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /**
   * One page of the accounts not deleted, with counts and bytes from grouped queries over `file`
   * and `file_version` (their owner indexes), joined to the page rather than asked per account.
   * Used bytes are what the quota counts: files, trash and kept versions.
   */
  async list(query: AdminUserListQuery): Promise<{ rows: AdminUserRow[]; total: number }> {
    const where = this.listFilter(query.search);
    const order = sql.raw(query.order === 'desc' ? 'desc' : 'asc');
    const result = await sql<RawRow>`
      select account.id, account.email, account.role, account.disabled_at, account.created_at, account.last_active_at,
        account.quota_bytes, coalesce(usage.files, 0) as files,
        coalesce(usage.used_bytes, 0) + coalesce(kept.used_bytes, 0) as used_bytes,
        ${TWO_FACTOR_ON} as two_factor
      from account
      left join (select owner_id, count(*) as files, sum(size) as used_bytes from file group by owner_id) usage
        on usage.owner_id = account.id
      left join (select owner_id, sum(size) as used_bytes from file_version group by owner_id) kept
        on kept.owner_id = account.id
      where ${where}
      order by ${sql.raw(SORT_COLUMNS[query.sort])} ${order}, account.id ${order}
      limit ${query.limit} offset ${query.offset}`.execute(this.db);
    const count = await sql<{ n: number | string }>`select count(*) as n from account where ${where}`.execute(this.db);
    return { rows: result.rows.map(toRow), total: Number(count.rows[0]?.n ?? 0) };
  }

  async find(id: string): Promise<AdminUserRow | undefined> {
    const result = await sql<RawRow>`
      select account.id, account.email, account.role, account.disabled_at, account.created_at, account.last_active_at,
        account.quota_bytes,
        (select count(*) from file where owner_id = account.id) as files,
        (select coalesce(sum(size), 0) from file where owner_id = account.id)
          + (select coalesce(sum(size), 0) from file_version where owner_id = account.id) as used_bytes,
        ${TWO_FACTOR_ON} as two_factor
      from account where account.id = ${id} and account.deleted_at is null`.execute(this.db);
    const row = result.rows[0];
    return row ? toRow(row) : undefined;
  }

  private listFilter(search: string | undefined): Expression<SqlBool> {
    const notDeleted = sql<SqlBool>`account.deleted_at is null`;
    if (!search) return notDeleted;
    const key = search.trim().normalize('NFC').toLowerCase();
    return sql<SqlBool>`${notDeleted} and account.email_key like ${likeContains(key)} escape '\\'`;
  }

  /**
   * Applies `change` unless it would leave no active administrator: the remaining ones are read
   * (and on PostgreSQL locked) in the same transaction. False when it was refused.
   */
  async updateKeepingAnAdmin(id: string, change: AccountChange, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const losesAdmin =
        change.role === 'user' || (change.disabledAt !== undefined && change.disabledAt !== null) || change.deletedAt !== undefined;
      if (losesAdmin) {
        const admins = await trx
          .selectFrom('account')
          .select('id')
          .where('role', '=', 'admin')
          .where('disabledAt', 'is', null)
          .where('deletedAt', 'is', null)
          .$if(this.dialect === 'postgres', (q) => q.forUpdate())
          .execute();
        if (admins.some((a) => a.id === id) && admins.length <= 1) return false;
      }
      await applyChange(trx, id, change, now);
      return true;
    });
  }

  /** Applies `change` whatever it leaves (the operator's `admin revoke --force`). */
  async update(id: string, change: AccountChange, now: number): Promise<void> {
    await this.db.transaction().execute((trx) => applyChange(trx, id, change, now));
  }

  /** Whether the account is an administrator, active. */
  async isActiveAdmin(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('account')
      .select('id')
      .where('id', '=', id)
      .where('role', '=', 'admin')
      .where('disabledAt', 'is', null)
      .where('deletedAt', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  async countActiveAdmins(): Promise<number> {
    const row = await this.db
      .selectFrom('account')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('role', '=', 'admin')
      .where('disabledAt', 'is', null)
      .where('deletedAt', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

async function applyChange(db: Db, id: string, change: AccountChange, now: number): Promise<void> {
  await db
    .updateTable('account')
    .set({ ...change, updatedAt: now })
    .where('id', '=', id)
    .execute();
  // The signed-in user answer is kept per drive version; a new role must show in it at once.
  if (change.role !== undefined) await bumpDriveVersion(db, id);
}

async function bumpDriveVersion(db: Db, accountId: string): Promise<void> {
  await db
    .insertInto('driveVersion')
    .values({ accountId, version: 1 })
    .onConflict((oc) => oc.column('accountId').doUpdateSet({ version: sql`drive_version.version + 1` }))
    .execute();
}

/** As the database answers (PostgreSQL gives bigint and count as strings); CamelCasePlugin names the columns. */
interface RawRow {
  id: string;
  email: string;
  role: AccountRole;
  disabledAt: number | string | null;
  createdAt: number | string;
  lastActiveAt: number | string | null;
  quotaBytes: number | string | null;
  files: number | string;
  usedBytes: number | string;
  twoFactor: number | string;
}

function toRow(r: RawRow): AdminUserRow {
  const n = (v: number | string | null) => (v === null ? null : Number(v));
  return {
    id: r.id,
    email: r.email,
    role: r.role,
    disabledAt: n(r.disabledAt),
    createdAt: Number(r.createdAt),
    lastActiveAt: n(r.lastActiveAt),
    quotaBytes: n(r.quotaBytes),
    files: Number(r.files),
    usedBytes: Number(r.usedBytes),
    twoFactor: Number(r.twoFactor) > 0,
  };
}
