import type { Db } from '../database.js';
import type { SecondFactorTicketPurpose } from '../schema.js';

export interface TwoFactorRow {
  accountId: string;
  secretCipher: string;
  enabledAt: number | null;
  lastUsedStep: number | null;
}

export class TwoFactorRepository {
  constructor(private readonly db: Db) {}

  find(accountId: string): Promise<TwoFactorRow | undefined> {
    return this.db
      .selectFrom('twoFactor')
      .select(['accountId', 'secretCipher', 'enabledAt', 'lastUsedStep'])
      .where('accountId', '=', accountId)
      .executeTakeFirst();
  }

  async isEnabled(accountId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('twoFactor')
      .select('accountId')
      .where('accountId', '=', accountId)
      .where('enabledAt', 'is not', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Which of these accounts have two-factor on. */
  async enabledAmong(accountIds: readonly string[]): Promise<Set<string>> {
    if (accountIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('twoFactor')
      .select('accountId')
      .where('accountId', 'in', accountIds)
      .where('enabledAt', 'is not', null)
      .execute();
    return new Set(rows.map((r) => r.accountId));
  }

  /** A new pending secret; refused (false) while a confirmed one exists. */
  async savePending(accountId: string, secretCipher: string, now: number): Promise<boolean> {
    await this.db.deleteFrom('twoFactor').where('accountId', '=', accountId).where('enabledAt', 'is', null).execute();
    const result = await this.db
      .insertInto('twoFactor')
      .values({ accountId, secretCipher, enabledAt: null, lastUsedStep: null, createdAt: now })
      .onConflict((oc) => oc.column('accountId').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /**
   * Takes a time step as used, only if it is later than the last one taken: one conditional
   * update, so two requests with the same code cannot both pass.
   */
  async useStep(accountId: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('twoFactor')
      .set({ lastUsedStep: step })
      .where('accountId', '=', accountId)
      .where((eb) => eb.or([eb('lastUsedStep', 'is', null), eb('lastUsedStep', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Confirms the pending secret and stores the recovery codes' hashes, in one transaction. */
  async enable(accountId: string, now: number, codeHashes: readonly string[]): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('twoFactor')
        .set({ enabledAt: now })
        .where('accountId', '=', accountId)
        .where('enabledAt', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.deleteFrom('recoveryCode').where('accountId', '=', accountId).execute();
      await trx
        .insertInto('recoveryCode')
        .values(codeHashes.map((codeHash) => ({ accountId, codeHash, usedAt: null })))
        .execute();
      return true;
    });
  }

  async replaceRecoveryCodes(accountId: string, codeHashes: readonly string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recoveryCode').where('accountId', '=', accountId).execute();
      await trx
        .insertInto('recoveryCode')
        .values(codeHashes.map((codeHash) => ({ accountId, codeHash, usedAt: null })))
        .execute();
    });
  }

  /** Spends an unused recovery code; false when there is none with this hash. */
  async useRecoveryCode(accountId: string, codeHash: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('recoveryCode')
      .set({ usedAt: now })
      .where('accountId', '=', accountId)
      .where('codeHash', '=', codeHash)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async recoveryCodesLeft(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('recoveryCode')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('accountId', '=', accountId)
      .where('usedAt', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Turns two-factor off: the secret and the recovery codes go. */
  async remove(accountId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('recoveryCode').where('accountId', '=', accountId).execute();
      await trx.deleteFrom('secondFactorTicket').where('accountId', '=', accountId).execute();
      const result = await trx.deleteFrom('twoFactor').where('accountId', '=', accountId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    });
  }

  async insertTicket(row: {
    ticketHash: string;
    accountId: string;
    browserKey: string;
    purpose: SecondFactorTicketPurpose;
    expiresAt: number;
  }): Promise<void> {
    await this.db.insertInto('secondFactorTicket').values(row).execute();
  }

  findTicket(
    ticketHash: string,
  ): Promise<{ accountId: string; browserKey: string; purpose: SecondFactorTicketPurpose; expiresAt: number } | undefined> {
    return this.db
      .selectFrom('secondFactorTicket')
      .select(['accountId', 'browserKey', 'purpose', 'expiresAt'])
      .where('ticketHash', '=', ticketHash)
      .executeTakeFirst();
  }

  /** Deletes a live ticket of this browser and purpose; only one caller can get it. */
  async takeTicket(ticketHash: string, browserKey: string, purpose: SecondFactorTicketPurpose, now: number): Promise<string | null> {
    const row = await this.db
      .deleteFrom('secondFactorTicket')
      .where('ticketHash', '=', ticketHash)
      .where('browserKey', '=', browserKey)
      .where('purpose', '=', purpose)
      .where('expiresAt', '>', now)
      .returning('accountId')
      .executeTakeFirst();
    return row?.accountId ?? null;
  }

  async deleteExpiredTickets(now: number): Promise<void> {
    await this.db.deleteFrom('secondFactorTicket').where('expiresAt', '<=', now).execute();
  }
}
