import type { AccountRole } from '@nimbus/common';
import type { TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

export interface SignedUp {
  browser: TestBrowser;
  id: string;
  email: string;
  password: string;
}

/** A new account, signed in, with the role given (set in the database: the admin area is what is under test). */
export async function accountOf(t: TestApp, role: AccountRole = 'user', email?: string): Promise<SignedUp> {
  const browser = new TestBrowser(t.app);
  const account = await browser.signUp(email);
  await t.app.database.db.updateTable('account').set({ role }).where('id', '=', account.id).execute();
  return { browser, ...account };
}

/** Every table and column that holds the account id somewhere, with how many rows name it. */
export async function rowsNaming(t: TestApp, accountId: string): Promise<Record<string, number>> {
  const db = t.app.database.db;
  const columns: Record<string, string[]> = {
    account: ['id'],
    session: ['account_id'],
    account_token: ['account_id'],
    app_password: ['account_id'],
    known_device: ['account_id'],
    oidc_identity: ['account_id'],
    folder: ['owner_id'],
    file: ['owner_id'],
    file_media: ['owner_id'],
    search_entry: ['owner_id'],
    dav_property: ['owner_id'],
    dav_lock: ['owner_id'],
    tus_upload: ['owner_id'],
    share_link: ['owner_id'],
    drop_origin: ['owner_id'],
    security_event: ['account_id'],
    drive_version: ['account_id'],
    item_share: ['owner_id', 'recipient_id'],
    invitation: ['invited_by'],
    trash_cascade: ['owner_id'],
    job_lane: ['lane'],
  };
  const found: Record<string, number> = {};
  for (const [table, cols] of Object.entries(columns)) {
    for (const col of cols) {
      const { rows } = await import('kysely').then(({ sql }) =>
        sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(col)} = ${accountId}`.execute(db),
      );
      const n = Number(rows[0]?.n ?? 0);
      if (n > 0) found[`${table}.${col}`] = n;
    }
  }
  return found;
}
