import type { Db } from '../database.js';
import type { AccountTable, InvitationTable } from '../schema.js';
import { AccountRepository } from './account.repository.js';

export type InvitationRow = InvitationTable;

/** An invitation row with the e-mail of who sent it (null when that account is gone). */
export type ListedInvitationRow = InvitationRow & { inviterEmail: string | null };

export type AcceptOutcome = 'created' | 'invitation-gone' | 'email-taken';

/** Thrown inside the accepting transaction to undo it. */
class Undo extends Error {
  constructor(readonly outcome: AcceptOutcome) {
    super(outcome);
  }
}

export class InvitationRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the invitation; an unanswered one to the same address is removed, so its link stops. */
  async insertReplacing(row: InvitationRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('invitation')
        .where('emailKey', '=', row.emailKey)
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .execute();
      await trx.insertInto('invitation').values(row).execute();
    });
  }

  findById(id: string): Promise<InvitationRow | undefined> {
    return this.db.selectFrom('invitation').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByTokenHash(tokenHash: string): Promise<InvitationRow | undefined> {
    return this.db.selectFrom('invitation').selectAll().where('tokenHash', '=', tokenHash).executeTakeFirst();
  }

  /** Newest first; only those `invitedBy` sent when given. */
  list(limit: number, invitedBy?: string): Promise<ListedInvitationRow[]> {
    let query = this.db
      .selectFrom('invitation')
      .leftJoin('account', 'account.id', 'invitation.invitedBy')
      .selectAll('invitation')
      .select('account.email as inviterEmail');
    if (invitedBy !== undefined) query = query.where('invitation.invitedBy', '=', invitedBy);
    return query.orderBy('invitation.createdAt', 'desc').orderBy('invitation.id', 'desc').limit(limit).execute();
  }

  /** Gives an unanswered invitation a new token and expiry; false when it was accepted or revoked meanwhile. */
  async reissue(id: string, change: { tokenHash: string; expiresAt: number; sentAt: number | null }): Promise<boolean> {
    const result = await this.db
      .updateTable('invitation')
      .set(change)
      .where('id', '=', id)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async markSent(id: string, sentAt: number): Promise<void> {
    await this.db.updateTable('invitation').set({ sentAt }).where('id', '=', id).execute();
  }

  /** False when the invitation was already accepted (a revoked one stays revoked). */
  async revoke(id: string, now: number): Promise<boolean> {
    await this.db
      .updateTable('invitation')
      .set({ revokedAt: now })
      .where('id', '=', id)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .execute();
    const row = await this.findById(id);
    return row !== undefined && row.acceptedAt === null;
  }

  /**
   * Accepts the invitation and inserts its account in one transaction: the conditional update lets
   * one sign-up through per token, however many race, and a taken e-mail leaves the invitation open.
   */
  async acceptWithAccount(invitationId: string, account: AccountTable, now: number): Promise<AcceptOutcome> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const accepted = await trx
          .updateTable('invitation')
          .set({ acceptedAt: now })
          .where('id', '=', invitationId)
          .where('acceptedAt', 'is', null)
          .where('revokedAt', 'is', null)
          .where('expiresAt', '>', now)
          .executeTakeFirst();
        if (Number(accepted.numUpdatedRows) !== 1) throw new Undo('invitation-gone');
        if (!(await new AccountRepository(trx).insert(account))) throw new Undo('email-taken');
        return 'created' as const;
      });
    } catch (err) {
      if (err instanceof Undo) return err.outcome;
      throw err;
    }
  }

  /** Deletes unaccepted invitations that expired before `before`. */
  async deleteExpired(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('invitation')
      .where('acceptedAt', 'is', null)
      .where('expiresAt', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
