import type { Db } from '../database.js';
import { preparedQuery } from '../prepared-query.js';
import type { SessionTable } from '../schema.js';

export type SessionRow = SessionTable;

/** Where a session was started; rows written before the server kept it have none. */
type SessionOrigin = 'userAgent' | 'clientAddress' | 'signInMethod';
export type NewSessionRow = Omit<SessionRow, SessionOrigin> & Partial<Pick<SessionRow, SessionOrigin>>;

/** A session in force as Settings → Devices shows it (no hashes). */
export type ListedSessionRow = Pick<SessionRow, 'id' | 'createdAt' | 'lastUsedAt' | SessionOrigin>;

interface ActiveSession {
  id: string;
  accountId: string;
  expiresAt: number;
  driveVersion: number;
}

interface PendingCheck {
  id: string;
  accountId: string;
  now: number;
  resolve: (driveVersion: number | null) => void;
  reject: (err: unknown) => void;
}

/** Most sessions one lookup reads; a larger batch takes several. */
const CHECK_BATCH_MAX = 32;

export class SessionRepository {
  /** The batched session lookup, prepared once per batch size. */
  private readonly checks = new Map<number, (ids: string[]) => Promise<ActiveSession[]>>();
  /** Session checks asked for since the last lookup; they share the next one. */
  private pending: PendingCheck[] = [];

  constructor(private readonly db: Db) {}

  async insert(row: NewSessionRow): Promise<void> {
    await this.db.insertInto('session').values(row).execute();
  }

  /** The account's sessions in force, most recently used first. */
  listActive(accountId: string, now: number): Promise<ListedSessionRow[]> {
    return this.db
      .selectFrom('session')
      .select(['id', 'createdAt', 'lastUsedAt', 'userAgent', 'clientAddress', 'signInMethod'])
      .where('accountId', '=', accountId)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', now)
      .orderBy('lastUsedAt', 'desc')
      .orderBy('id')
      .execute();
  }

  /** Revokes one session of the account if it is in force; null when there is none such. */
  async revokeOfAccount(id: string, accountId: string, now: number): Promise<ListedSessionRow | null> {
    const row = await this.db
      .updateTable('session')
      .set({ revokedAt: now })
      .where('id', '=', id)
      .where('accountId', '=', accountId)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', now)
      .returning(['id', 'createdAt', 'lastUsedAt', 'userAgent', 'clientAddress', 'signInMethod'])
      .executeTakeFirst();
    return row ?? null;
  }

  findById(id: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('session').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** True when the session exists, belongs to an active account and is neither revoked nor expired. */
  async isActive(id: string, accountId: string, now: number): Promise<boolean> {
    return (await this.activeDriveVersion(id, accountId, now)) !== null;
  }

  /**
   * For an active session (as `isActive`), the account's drive version (see the drive_version
   * migration), read in the same lookup; null when the session is not active.
   *
   * Every signed-in request asks this, so the checks asked for while the server reads requests are
   * answered together once it is done (setImmediate): one prepared primary-key lookup for them all,
   * read after each of them arrived. One lookup per request cost about half of a small request's
   * CPU under load: each queued for SQLite's one connection, whose mutex (Kysely's) wakes every
   * waiter at each release.
   */
  activeDriveVersion(id: string, accountId: string, now: number): Promise<number | null> {
    return new Promise((resolve, reject) => {
      if (this.pending.push({ id, accountId, now, resolve, reject }) === 1) setImmediate(() => void this.runChecks());
    });
  }

  private async runChecks(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const ids = [...new Set(batch.map((c) => c.id))];
    try {
      const found = new Map<string, ActiveSession>();
      for (let i = 0; i < ids.length; i += CHECK_BATCH_MAX) {
        const chunk = ids.slice(i, i + CHECK_BATCH_MAX);
        for (const row of await this.checkOf(chunk.length)(chunk)) found.set(row.id, row);
      }
      for (const check of batch) {
        const row = found.get(check.id);
        check.resolve(row && row.accountId === check.accountId && row.expiresAt > check.now ? Number(row.driveVersion) : null);
      }
    } catch (err) {
      for (const check of batch) check.reject(err);
    }
  }

  private checkOf(size: number): (ids: string[]) => Promise<ActiveSession[]> {
    let check = this.checks.get(size);
    if (!check) {
      check = preparedQuery(this.db, size, (ids: string[]) =>
        this.db
          .selectFrom('session')
          .innerJoin('account', 'account.id', 'session.accountId')
          .leftJoin('driveVersion', 'driveVersion.accountId', 'session.accountId')
          .select((eb) => [
            'session.id',
            'session.accountId',
            'session.expiresAt',
            eb.fn.coalesce('driveVersion.version', eb.lit(0)).as('driveVersion'),
          ])
          .where('session.id', 'in', ids)
          .where('session.revokedAt', 'is', null)
          // A disabled or deleted account's access tokens stop at once, whatever revoked its sessions or not.
          .where('account.disabledAt', 'is', null)
          .where('account.deletedAt', 'is', null),
      );
      this.checks.set(size, check);
    }
    return check;
  }

  /**
   * Replaces the refresh hash only if it is still the one presented, so two racing
   * rotations of the same token cannot both succeed.
   */
  async rotate(id: string, presentedHash: string, nextHash: string, now: number, expiresAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('session')
      .set({ refreshHash: nextHash, previousRefreshHash: presentedHash, lastUsedAt: now, expiresAt })
      .where('id', '=', id)
      .where('refreshHash', '=', presentedHash)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async revoke(id: string, now: number): Promise<void> {
    await this.db.updateTable('session').set({ revokedAt: now }).where('id', '=', id).where('revokedAt', 'is', null).execute();
  }

  async revokeAllOfAccount(accountId: string, now: number, exceptSessionId?: string): Promise<void> {
    let query = this.db.updateTable('session').set({ revokedAt: now }).where('accountId', '=', accountId).where('revokedAt', 'is', null);
    if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
    await query.execute();
  }

  /** Housekeeping: sessions that can no longer be used. */
  async deleteDead(now: number, keepRevokedMs: number): Promise<number> {
    const result = await this.db
      .deleteFrom('session')
      .where((eb) => eb.or([eb('expiresAt', '<=', now), eb('revokedAt', '<=', now - keepRevokedMs)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
