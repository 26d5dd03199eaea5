import type { Db } from '../database.js';

/** What decides an account's quota: its own, and the server's default as an administrator set it. */
export interface QuotaSources {
  /** Undefined when the account is gone. */
  own: number | null | undefined;
  /** The `defaultQuotaBytes` server setting as stored (JSON); undefined when never set. */
  defaultSetting: string | undefined;
}

/** Reads both in one query, on whatever connection or transaction it is given. */
export async function readQuotaSources(db: Db, accountId: string): Promise<QuotaSources> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('account').select('quotaBytes').where('id', '=', accountId).as('own'),
      eb.selectFrom('serverSetting').select('value').where('key', '=', 'defaultQuotaBytes').as('defaultSetting'),
    ])
    .executeTakeFirstOrThrow();
  return {
    own: row.own === null ? null : row.own === undefined ? undefined : Number(row.own),
    defaultSetting: row.defaultSetting ?? undefined,
  };
}

/** Bytes of the account's files, those in the trash apart, and of their kept versions. */
export async function readStorageUsage(db: Db, ownerId: string): Promise<{ files: number; trash: number; versions: number }> {
  const rows = await db
    .selectFrom('file')
    .select((eb) => [
      eb.fn
        .coalesce(eb.fn.sum<number | string>(eb.case().when('trashedAt', 'is', null).then(eb.ref('size')).else(0).end()), eb.lit(0))
        .as('files'),
      eb.fn
        .coalesce(eb.fn.sum<number | string>(eb.case().when('trashedAt', 'is not', null).then(eb.ref('size')).else(0).end()), eb.lit(0))
        .as('trash'),
      eb
        .selectFrom('fileVersion')
        .select((v) => v.fn.coalesce(v.fn.sum<number | string>('size'), v.lit(0)).as('n'))
        .where('fileVersion.ownerId', '=', ownerId)
        .as('versions'),
    ])
    .where('ownerId', '=', ownerId)
    .executeTakeFirstOrThrow();
  return { files: Number(rows.files), trash: Number(rows.trash), versions: Number(rows.versions ?? 0) };
}
