import { sql } from 'kysely';
import type { Db } from '../database.js';

/**
 * What deleting an account removes beside its files and folders (which go through the trash's
 * deletion, blobs included): every row that names the account, then the account itself.
 */
export class AccountDeletionRepository {
  constructor(private readonly db: Db) {}

  async fileIds(ownerId: string, limit: number): Promise<string[]> {
    const rows = await this.db.selectFrom('file').select('id').where('ownerId', '=', ownerId).limit(limit).execute();
    return rows.map((r) => r.id);
  }

  async folderIds(ownerId: string, limit: number): Promise<string[]> {
    const rows = await this.db.selectFrom('folder').select('id').where('ownerId', '=', ownerId).limit(limit).execute();
    return rows.map((r) => r.id);
  }

  /** Resumable uploads not yet a file: their bytes are the upload's own. */
  async openUploadIds(ownerId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('tusUpload').select('id').where('ownerId', '=', ownerId).where('fileId', 'is', null).execute();
    return rows.map((r) => r.id);
  }

  /** Accounts marked deleted whose removal has not finished (a stopped server, a failed job). */
  async pending(): Promise<string[]> {
    const rows = await this.db.selectFrom('account').select('id').where('deletedAt', 'is not', null).execute();
    return rows.map((r) => r.id);
  }

  /** Every remaining row of the account, and the account, in one transaction. */
  async removeRest(accountId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('searchEntry').where('ownerId', '=', accountId).execute();
      await trx.deleteFrom('fileMedia').where('ownerId', '=', accountId).execute();
      await trx.deleteFrom('dropOrigin').where('ownerId', '=', accountId).execute();
      await trx.deleteFrom('shareLink').where('ownerId', '=', accountId).execute();
      await trx
        .deleteFrom('itemShare')
        .where((eb) => eb.or([eb('ownerId', '=', accountId), eb('recipientId', '=', accountId)]))
        .execute();
      await trx.deleteFrom('davLock').where('ownerId', '=', accountId).execute();
      await trx.deleteFrom('davProperty').where('ownerId', '=', accountId).execute();
      await trx.deleteFrom('tusUpload').where('ownerId', '=', accountId).execute();
      await trx.deleteFrom('session').where('accountId', '=', accountId).execute();
      await trx.deleteFrom('accountToken').where('accountId', '=', accountId).execute();
      await trx.deleteFrom('appPassword').where('accountId', '=', accountId).execute();
      await trx.deleteFrom('knownDevice').where('accountId', '=', accountId).execute();
      await trx.deleteFrom('oidcIdentity').where('accountId', '=', accountId).execute();
      await trx.deleteFrom('securityEvent').where('accountId', '=', accountId).execute();
      await trx.deleteFrom('driveVersion').where('accountId', '=', accountId).execute();
      await trx.deleteFrom('jobLane').where('lane', '=', accountId).execute();
      // Cascades the trash left unfinished: finished by the deletion of the folders, but a stopped
      // server may leave their bookkeeping (the trash repository's own tables).
      await sql`delete from trash_cascade_folder where cascade_id in (select id from trash_cascade where owner_id = ${accountId})`.execute(
        trx,
      );
      await sql`delete from trash_cascade where owner_id = ${accountId}`.execute(trx);
      // Contents the account stored in others' files (as an editor) stay theirs, by nobody named.
      await trx.updateTable('fileVersion').set({ authorId: null }).where('authorId', '=', accountId).execute();
      await trx.updateTable('file').set({ contentAuthorId: null }).where('contentAuthorId', '=', accountId).execute();
      await trx.updateTable('invitation').set({ invitedBy: null }).where('invitedBy', '=', accountId).execute();
      await trx.deleteFrom('account').where('id', '=', accountId).execute();
    });
  }
}
