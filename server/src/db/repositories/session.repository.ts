import type { Db } from '../database.js';
import type { SessionTable } from '../schema.js';

export type SessionRow = SessionTable;

export class SessionRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SessionRow): Promise<void> {
    await this.db.insertInto('session').values(row).execute();
  }

  findById(id: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('session').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** True when the session exists, belongs to the account and is neither revoked nor expired. */
  async isActive(id: string, accountId: string, now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('session')
      .select('id')
      .where('id', '=', id)
      .where('accountId', '=', accountId)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
    return row !== undefined;
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
