import type { AdminUserDto } from '@nimbus/common';
import type { AdminUserRow } from '../../db/repositories/admin-user.repository.js';

/** An account as the admin area shows it: counts and sizes, no names of what it stores. */
export function toAdminUserDto(row: AdminUserRow, defaultQuotaBytes: number | null): AdminUserDto {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.disabledAt === null ? 'active' : 'disabled',
    createdAt: new Date(row.createdAt).toISOString(),
    lastActiveAt: row.lastActiveAt === null ? null : new Date(row.lastActiveAt).toISOString(),
    usedBytes: row.usedBytes,
    files: row.files,
    quotaBytes: row.quotaBytes ?? defaultQuotaBytes,
    customQuota: row.quotaBytes !== null,
    twoFactor: row.twoFactor,
  };
}
