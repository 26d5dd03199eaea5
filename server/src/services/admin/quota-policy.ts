import type { Db } from '../../db/database.js';
import type { StorageUsageDto } from '@nimbus/common';
import { readQuotaSources, readStorageUsage } from '../../db/repositories/account-quota.repository.js';

/**
 * The quota in force for an account: its own (`account.quota_bytes`), else the server's default
 * (the `defaultQuotaBytes` setting, else `STORAGE_QUOTA_BYTES`), else none. Read on each use, in
 * the caller's transaction when it has one, so a change applies at once in every process and an
 * upload is measured against the limit read beside the bytes it is charged with.
 */
export class QuotaPolicy {
  constructor(
    private readonly db: Db,
    /** The default when no administrator set one (`STORAGE_QUOTA_BYTES`). */
    private readonly configDefault: number | null,
  ) {}

  /** Bytes the account may store; null for no limit. `db` is the transaction to read in. */
  async limitOf(accountId: string, db: Db = this.db): Promise<number | null> {
    const { own, defaultSetting } = await readQuotaSources(db, accountId);
    if (own !== null && own !== undefined) return own;
    return defaultSetting === undefined ? this.configDefault : (JSON.parse(defaultSetting) as number | null);
  }

  /** Settings' storage bar: what the account stores against its quota. */
  async usageOf(accountId: string): Promise<StorageUsageDto> {
    const [bytes, quotaBytes] = await Promise.all([readStorageUsage(this.db, accountId), this.limitOf(accountId)]);
    return { usedBytes: bytes.files + bytes.trash + bytes.versions, quotaBytes, bytes };
  }
}
