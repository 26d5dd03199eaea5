import type { Db } from '../database.js';
import { preparedQuery } from '../prepared-query.js';
import type { AccountTable } from '../schema.js';

export type AccountRow = AccountTable;

/** `last_active_at` is kept to the minute. */
const ACTIVITY_RESOLUTION_MS = 60_000;

export class AccountRepository {
  /** `findById`, compiled at its first use: every request for the signed-in user asks it. */
  private byId: ((args: string[]) => Promise<AccountRow[]>) | undefined;

  constructor(private readonly db: Db) {}

  async findById(id: string): Promise<AccountRow | undefined> {
    this.byId ??= preparedQuery(this.db, 1, ([accountId]: string[]) =>
      this.db.selectFrom('account').selectAll().where('id', '=', accountId!),
    );
    return (await this.byId([id]))[0];
  }

  /** Whether the account exists and is neither disabled nor deleted: what its links and shares need. */
  async isActive(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('account')
      .select('id')
      .where('id', '=', id)
      .where('disabledAt', 'is', null)
      .where('deletedAt', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  findByEmailKey(emailKey: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('account').selectAll().where('emailKey', '=', emailKey).executeTakeFirst();
  }

  /** False when the e-mail is taken (the unique index decides, so racing sign-ups cannot both win). */
  async insert(row: AccountRow): Promise<boolean> {
    const result = await this.db
      .insertInto('account')
      .values(row)
      .onConflict((oc) => oc.column('emailKey').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async setPasswordHash(id: string, passwordHash: string, now: number): Promise<void> {
    // A password set through a reset e-mail is how an account made by single sign-on gets one.
    await this.db.updateTable('account').set({ passwordHash, hasPassword: 1, updatedAt: now }).where('id', '=', id).execute();
  }

  async markEmailVerified(id: string, now: number): Promise<void> {
    await this.db.updateTable('account').set({ emailVerified: 1, updatedAt: now }).where('id', '=', id).execute();
  }

  /**
   * Claims the one-minute e-mail slot in a single conditional update, so the cooldown holds
   * across concurrent requests and server processes. False when the slot is still taken.
   */
  async claimEmailSlot(id: string, column: 'verifyEmailSentAt' | 'resetEmailSentAt', now: number, cooldownMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('account')
      .set({ [column]: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb(column, 'is', null), eb(column, '<=', now - cooldownMs)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records activity now, at most once a minute: one conditional update, nothing written in between. */
  async touchActive(id: string, now: number): Promise<void> {
    await this.db
      .updateTable('account')
      .set({ lastActiveAt: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lastActiveAt', 'is', null), eb('lastActiveAt', '<=', now - ACTIVITY_RESOLUTION_MS)]))
      .execute();
  }

  /** Gives the slot back when the e-mail could not be sent, so the user may retry at once. */
  async releaseEmailSlot(id: string, column: 'verifyEmailSentAt' | 'resetEmailSentAt', claimedAt: number): Promise<void> {
    await this.db
      .updateTable('account')
      .set({ [column]: null })
      .where('id', '=', id)
      .where(column, '=', claimedAt)
      .execute();
  }
}
