import type { AdminPasswordResetDto, AdminUserDto, AdminUserPage, AdminUsersQuery, UpdateAdminUserBody } from '@nimbus/common';
import type { AdminUserRepository, AdminUserRow } from '../../db/repositories/admin-user.repository.js';
import { ConflictError, InvalidError, NotFoundError } from '../../domain/errors.js';
import { JOB } from '../../jobs/job-names.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { AccountService } from '../accounts/account.service.js';
import type { SecurityRecorder } from '../accounts/security-log.service.js';
import type { SessionService } from '../accounts/session.service.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import type { ServerSettingsService } from './server-settings.service.js';
import { toAdminUserDto } from './admin-user.presenter.js';
import type { SecurityEventType } from '@nimbus/common';

export interface AdminUserServiceDeps {
  users: AdminUserRepository;
  settings: ServerSettingsService;
  sessions: SessionService;
  accounts: AccountService;
  queue: JobQueue;
  security: SecurityRecorder;
  clock: Clock;
  /** Two-factor sign-in: reset by an administrator. */
  twoFactor: { reset(accountId: string): Promise<boolean> };
  /** Wakes the job worker for a deletion just enqueued. */
  wake: () => void;
}

/**
 * Accounts as an administrator manages them: list, disable, quota, role, password reset, delete.
 * The last active administrator always stays: nobody can demote, disable or delete them, and an
 * administrator never does any of these to themselves.
 */
export class AdminUserService {
  constructor(private readonly deps: AdminUserServiceDeps) {}

  isAdmin(accountId: string): Promise<boolean> {
    return this.deps.users.isActiveAdmin(accountId);
  }

  async list(query: AdminUsersQuery): Promise<AdminUserPage> {
    const [{ rows, total }, settings] = await Promise.all([this.deps.users.list(query), this.deps.settings.get()]);
    return { users: rows.map((r) => toAdminUserDto(r, settings.defaultQuotaBytes)), total, offset: query.offset, limit: query.limit };
  }

  async get(id: string): Promise<AdminUserDto> {
    const row = await this.find(id);
    return toAdminUserDto(row, (await this.deps.settings.get()).defaultQuotaBytes);
  }

  async update(actorId: string, id: string, body: UpdateAdminUserBody, caller: Caller): Promise<AdminUserDto> {
    const target = await this.find(id);
    const now = this.deps.clock.now();
    const disabling = body.disabled === true && target.disabledAt === null;
    const enabling = body.disabled === false && target.disabledAt !== null;
    const roleChange = body.role !== undefined && body.role !== target.role;
    if (id === actorId && (disabling || (roleChange && body.role === 'user'))) throw lastAdmin('You cannot disable or demote yourself');
    const change = {
      ...(disabling ? { disabledAt: now } : enabling ? { disabledAt: null } : {}),
      ...(roleChange ? { role: body.role! } : {}),
      ...(body.quotaBytes !== undefined ? { quotaBytes: body.quotaBytes } : {}),
    };
    if (Object.keys(change).length > 0 && !(await this.deps.users.updateKeepingAnAdmin(id, change, now))) {
      throw lastAdmin('The last active administrator cannot be disabled or demoted');
    }
    // Every session ends at once; access tokens already stop on the account check of each request.
    if (disabling) await this.deps.sessions.endAll(id);
    if (disabling) await this.record(actorId, target, 'admin-account-disabled', caller);
    if (enabling) await this.record(actorId, target, 'admin-account-enabled', caller);
    if (roleChange) await this.record(actorId, target, 'admin-role-changed', caller);
    if (body.quotaBytes !== undefined && body.quotaBytes !== target.quotaBytes)
      await this.record(actorId, target, 'admin-quota-changed', caller);
    return this.get(id);
  }

  /** Marks the account deleted (it stops at once) and leaves its removal to the `account.delete` job. */
  async delete(actorId: string, id: string, confirmEmail: string, caller: Caller): Promise<void> {
    const target = await this.find(id);
    if (confirmEmail.trim().normalize('NFC').toLowerCase() !== target.email.normalize('NFC').toLowerCase()) {
      throw new InvalidError('The e-mail typed is not the account’s', undefined, 'CONFIRMATION_MISMATCH');
    }
    if (id === actorId) throw lastAdmin('You cannot delete your own account here');
    const now = this.deps.clock.now();
    if (!(await this.deps.users.updateKeepingAnAdmin(id, { deletedAt: now, disabledAt: target.disabledAt ?? now }, now))) {
      throw lastAdmin('The last active administrator cannot be deleted');
    }
    await this.deps.sessions.endAll(id);
    await this.deps.queue.enqueue(JOB.accountDelete, { accountId: id }, { dedupeKey: `${JOB.accountDelete}:${id}` });
    this.deps.wake();
    // Only the administrator's log: the account's own goes with it.
    await this.deps.security.record(actorId, { type: 'admin-account-deleted', caller, details: { name: target.email, kind: 'actor' } });
  }

  /** Two-factor off for an account that lost its authenticator and recovery codes. */
  async resetTwoFactor(actorId: string, id: string, caller: Caller): Promise<AdminUserDto> {
    const target = await this.find(id);
    if (!(await this.deps.twoFactor.reset(target.id)))
      throw new ConflictError('TWO_FACTOR_NOT_ENABLED', 'Two-factor sign-in is not on for this account');
    await this.record(actorId, target, 'admin-two-factor-reset', caller);
    return this.get(id);
  }

  async resetPassword(actorId: string, id: string, caller: Caller): Promise<AdminPasswordResetDto> {
    const target = await this.find(id);
    const result = await this.deps.accounts.startPasswordResetFor(target.id, caller.log);
    await this.record(actorId, target, 'admin-password-reset', caller);
    return result;
  }

  private async find(id: string): Promise<AdminUserRow> {
    const row = await this.deps.users.find(id);
    if (!row) throw new NotFoundError('USER_NOT_FOUND', 'User not found');
    return row;
  }

  /** In the administrator's log, naming the account; in the account's, that an administrator did it. */
  private async record(actorId: string, target: AdminUserRow, type: SecurityEventType, caller: Caller): Promise<void> {
    await this.deps.security.record(actorId, { type, caller, details: { name: target.email, kind: 'actor' } });
    if (target.id !== actorId) await this.deps.security.record(target.id, { type, details: { kind: 'account' } });
  }
}

function lastAdmin(message: string): ConflictError {
  return new ConflictError('LAST_ADMIN', message);
}
