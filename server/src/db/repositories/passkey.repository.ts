import type { Db } from '../database.js';
import type { PasskeyTable, WebauthnChallengeTable } from '../schema.js';

export type PasskeyRow = PasskeyTable;
export type WebauthnChallengeRow = WebauthnChallengeTable;

export class PasskeyRepository {
  constructor(private readonly db: Db) {}

  async insert(row: PasskeyRow): Promise<void> {
    await this.db.insertInto('passkey').values(row).execute();
  }

  listOwned(accountId: string): Promise<PasskeyRow[]> {
    return this.db.selectFrom('passkey').selectAll().where('accountId', '=', accountId).orderBy('createdAt').orderBy('id').execute();
  }

  async countOwned(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('passkey')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('accountId', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
    return this.db.selectFrom('passkey').selectAll().where('credentialId', '=', credentialId).executeTakeFirst();
  }

  /** False when the account has no such passkey. */
  async renameOwned(accountId: string, id: string, name: string): Promise<boolean> {
    const result = await this.db
      .updateTable('passkey')
      .set({ name })
      .where('id', '=', id)
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** False when the account has no such passkey. */
  async deleteOwned(accountId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('passkey').where('id', '=', id).where('accountId', '=', accountId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /**
   * Moves the counter forward, only from the value the answer was checked against: of two answers
   * racing with one counter value, one wins. False for the loser.
   */
  async recordUse(id: string, from: number, to: number, backedUp: boolean, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('passkey')
      .set({ counter: to, backedUp: backedUp ? 1 : 0, lastUsedAt: now })
      .where('id', '=', id)
      .where('counter', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async insertChallenge(row: WebauthnChallengeRow): Promise<void> {
    await this.db.insertInto('webauthnChallenge').values(row).execute();
  }

  /** Spends a challenge: true only for the first caller, before expiry, with the ceremony it was made for. */
  async consumeChallenge(expected: Omit<WebauthnChallengeRow, 'expiresAt'>, now: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('webauthnChallenge')
      .where('challengeHash', '=', expected.challengeHash)
      .where('purpose', '=', expected.purpose)
      .where('browserKey', '=', expected.browserKey)
      .where('accountId', expected.accountId === null ? 'is' : '=', expected.accountId)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async deleteExpiredChallenges(now: number): Promise<number> {
    const result = await this.db.deleteFrom('webauthnChallenge').where('expiresAt', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
