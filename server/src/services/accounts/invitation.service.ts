import { ADMIN_LIMITS, type InvitationDto } from '@nimbus/common';
import type { AccountRepository } from '../../db/repositories/account.repository.js';
import type { InvitationRepository, InvitationRow, ListedInvitationRow } from '../../db/repositories/invitation.repository.js';
import type { LoginThrottleRepository, ThrottlePolicy } from '../../db/repositories/login-throttle.repository.js';
import { ConflictError, ForbiddenError, InvalidError, NotFoundError, UnauthorizedError } from '../../domain/errors.js';
import type { Logger } from '../../logger.js';
import type { Mailer } from '../../mail/mailer.js';
import { invitationMessage } from '../../mail/templates.js';
import { hashToken, newId, newSecret } from '../../security/ids.js';
import type { ServerSettingsService } from '../admin/server-settings.service.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { emailKeyOf } from './account.service.js';
import { reserveAttempts } from './attempt-budget.js';
import type { SecurityRecorder } from './security-log.service.js';

export type { InvitationRow, ListedInvitationRow } from '../../db/repositories/invitation.repository.js';

const DAY_MS = 24 * 60 * 60_000;
const VALID_MS = ADMIN_LIMITS.invitationDays * DAY_MS;
/** Invitations (and resends) one account may send an hour: enough for a team, too few to spam with. */
const INVITES_PER_HOUR: ThrottlePolicy = { maxFailures: 50, windowMs: 60 * 60_000, lockMs: 60 * 60_000 };
/** What any listing shows at most, newest first. */
const LIST_MAX = 500;

export interface CreatedInvitation {
  invitation: ListedInvitationRow;
  emailSent: boolean;
  /** The link when no e-mail carried it. */
  link: string | null;
}

export interface InvitationServiceOptions {
  appUrl: string;
}

const notFound = () => new NotFoundError('INVITATION_NOT_FOUND', 'This invitation does not exist or has expired');

export function invitationStatusOf(row: InvitationRow, now: number): InvitationDto['status'] {
  if (row.acceptedAt !== null) return 'accepted';
  if (row.revokedAt !== null) return 'revoked';
  return row.expiresAt <= now ? 'expired' : 'pending';
}

/**
 * Invitations to make an account: sent by administrators, and by other accounts when the server
 * setting allows. Only a hash of each link's token is kept; a link works once, for 7 days.
 */
export class InvitationService {
  constructor(
    private readonly invitations: InvitationRepository,
    private readonly accounts: AccountRepository,
    private readonly settings: ServerSettingsService,
    private readonly throttle: LoginThrottleRepository,
    private readonly mailer: Mailer | null,
    private readonly clock: Clock,
    private readonly options: InvitationServiceOptions,
    private readonly log: Logger,
    private readonly security: SecurityRecorder | null = null,
  ) {}

  async create(inviterId: string, email: string, caller: Caller): Promise<CreatedInvitation> {
    const inviter = await this.inviter(inviterId, { sending: true });
    const address = email.trim();
    const emailKey = emailKeyOf(address);
    if (await this.accounts.findByEmailKey(emailKey)) throw new ConflictError('EMAIL_EXISTS', 'Email already exists');
    await this.rateLimit(inviter.id);
    const now = this.clock.now();
    const token = newSecret();
    const row: InvitationRow = {
      id: newId(),
      email: address,
      emailKey,
      tokenHash: hashToken(token),
      invitedBy: inviter.id,
      createdAt: now,
      sentAt: null,
      expiresAt: now + VALID_MS,
      acceptedAt: null,
      revokedAt: null,
    };
    await this.invitations.insertReplacing(row);
    const sent = await this.send(row, inviter.email, token, caller.log);
    await this.security?.record(inviter.id, { type: 'invitation-sent', caller, details: { name: address } });
    return sent;
  }

  /** Everything for an administrator, the account's own for anyone else; newest first. */
  async list(accountId: string): Promise<ListedInvitationRow[]> {
    const account = await this.inviter(accountId, { sending: false });
    return this.invitations.list(LIST_MAX, account.role === 'admin' ? undefined : account.id);
  }

  /** A new link and a new expiry for an invitation not yet answered; the old link stops. */
  async resend(accountId: string, id: string, caller: Caller): Promise<CreatedInvitation> {
    const inviter = await this.inviter(accountId, { sending: true });
    const row = await this.visible(inviter, id);
    if (row.acceptedAt !== null || row.revokedAt !== null)
      throw new ConflictError('CONFLICT', 'This invitation was already accepted or revoked');
    await this.rateLimit(inviter.id);
    const now = this.clock.now();
    const token = newSecret();
    const change = { tokenHash: hashToken(token), expiresAt: now + VALID_MS, sentAt: null };
    if (!(await this.invitations.reissue(row.id, change)))
      throw new ConflictError('CONFLICT', 'This invitation was already accepted or revoked');
    const sent = await this.send({ ...row, ...change }, inviter.email, token, caller.log);
    await this.security?.record(inviter.id, { type: 'invitation-sent', caller, details: { name: row.email } });
    return sent;
  }

  async revoke(accountId: string, id: string, caller: Caller): Promise<void> {
    const account = await this.inviter(accountId, { sending: false });
    const row = await this.visible(account, id);
    if (row.revokedAt !== null) return;
    if (!(await this.invitations.revoke(row.id, this.clock.now())))
      throw new ConflictError('CONFLICT', 'This invitation was already accepted');
    await this.security?.record(account.id, { type: 'invitation-revoked', caller, details: { name: row.email } });
  }

  /** The invitation a link stands for, while it can still be used. */
  async open(token: string): Promise<InvitationRow> {
    const row = await this.invitations.findByTokenHash(hashToken(token));
    if (!row || invitationStatusOf(row, this.clock.now()) !== 'pending') throw notFound();
    return row;
  }

  /** The invitation a sign-up uses: open, and for the same address. */
  async forSignup(token: string, email: string): Promise<InvitationRow> {
    const row = await this.open(token);
    if (row.emailKey !== emailKeyOf(email))
      throw new InvalidError('This invitation is for another e-mail address', undefined, 'INVITATION_EMAIL_MISMATCH');
    return row;
  }

  /** The account, when it may send invitations (`sending`) or at least see its own. */
  private async inviter(accountId: string, { sending }: { sending: boolean }) {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new UnauthorizedError();
    if (sending && account.role !== 'admin' && !(await this.settings.get()).usersMayInvite)
      throw new ForbiddenError('INVITE_NOT_ALLOWED', 'Only an administrator can invite people to this server');
    return account;
  }

  /** An administrator reaches every invitation, anyone else only their own (others' read as unknown). */
  private async visible(account: { id: string; role: string }, id: string): Promise<InvitationRow> {
    const row = await this.invitations.findById(id);
    if (!row || (account.role !== 'admin' && row.invitedBy !== account.id)) throw notFound();
    return row;
  }

  private rateLimit(accountId: string): Promise<void> {
    return reserveAttempts(this.throttle, [[`invite:${accountId}`, INVITES_PER_HOUR]], this.clock.now(), {
      code: 'RATE_LIMITED',
      message: 'Too many invitations; try again later',
    });
  }

  /** E-mails the link; without mail, or when sending fails, the link is handed back instead. */
  private async send(row: InvitationRow, inviterEmail: string, token: string, log: Logger = this.log): Promise<CreatedInvitation> {
    const link = `${this.options.appUrl}/invite/${token}`;
    let emailSent = false;
    if (this.mailer) {
      try {
        await this.mailer.send(invitationMessage(row.email, inviterEmail, link, ADMIN_LIMITS.invitationDays));
        emailSent = true;
      } catch (err) {
        log.error({ err, invitationId: row.id }, 'sending the invitation failed');
      }
    }
    const sentAt = emailSent ? this.clock.now() : null;
    if (sentAt !== null) await this.invitations.markSent(row.id, sentAt);
    return { invitation: { ...row, sentAt, inviterEmail }, emailSent, link: emailSent ? null : link };
  }
}
