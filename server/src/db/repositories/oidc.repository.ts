import type { Db } from '../database.js';
import type { OidcLoginTable } from '../schema.js';

export type OidcLoginRow = OidcLoginTable;

/** Single sign-on: pending sign-ins and the provider identities linked to accounts. */
export class OidcRepository {
  constructor(private readonly db: Db) {}

  /** Also drops the expired ones, so abandoned sign-ins do not pile up. */
  async insertLogin(row: OidcLoginRow, now: number): Promise<void> {
    await this.db.deleteFrom('oidcLogin').where('expiresAt', '<=', now).execute();
    await this.db.insertInto('oidcLogin').values(row).execute();
  }

  /** Deletes and answers the pending sign-in: of two returns with the same state, one gets it. */
  takeLogin(stateHash: string): Promise<OidcLoginRow | undefined> {
    return this.db.deleteFrom('oidcLogin').where('stateHash', '=', stateHash).returningAll().executeTakeFirst();
  }

  async accountOfIdentity(issuer: string, subject: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('oidcIdentity')
      .select('accountId')
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row?.accountId;
  }

  /** Links, unless the identity is already linked (to this or, after a race, another account). */
  async link(issuer: string, subject: string, accountId: string, now: number): Promise<void> {
    await this.db
      .insertInto('oidcIdentity')
      .values({ issuer, subject, accountId, createdAt: now })
      .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
      .execute();
  }
}
