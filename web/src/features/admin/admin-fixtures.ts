import type { AdminUserDto, AdminUserPage, InvitationDto } from '@nimbus/common';
import { testUser } from '../../test/render-app';

export const adminUser = { ...testUser, role: 'admin' as const };

export function adminUserRow(overrides: Partial<AdminUserDto> = {}): AdminUserDto {
  return {
    id: 'u1',
    email: 'bob@example.com',
    role: 'user',
    status: 'active',
    createdAt: '2026-01-02T10:00:00.000Z',
    lastActiveAt: '2026-03-04T10:00:00.000Z',
    usedBytes: 512 * 1024 ** 2,
    files: 12,
    quotaBytes: 1024 ** 3,
    customQuota: false,
    twoFactor: false,
    ...overrides,
  };
}

export const page = (users: AdminUserDto[], total = users.length, offset = 0): AdminUserPage => ({ users, total, offset, limit: 50 });

export function invitation(overrides: Partial<InvitationDto> = {}): InvitationDto {
  return {
    id: 'i1',
    email: 'carol@example.com',
    invitedBy: 'user-1',
    createdAt: '2026-03-01T10:00:00.000Z',
    sentAt: '2026-03-01T10:00:00.000Z',
    expiresAt: '2026-03-08T10:00:00.000Z',
    status: 'pending',
    ...overrides,
  };
}
