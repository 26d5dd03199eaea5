import type { SignupMode } from '@nimbus/common';
import type { AccountRow } from '../../db/repositories/account.repository.js';
import type { InvitationRepository, InvitationRow } from '../../db/repositories/invitation.repository.js';
import type { SignupRepository } from '../../db/repositories/signup.repository.js';
import { ForbiddenError, NotFoundError } from '../../domain/errors.js';
import type { ServerSettingsService } from '../admin/server-settings.service.js';
import type { InvitationService } from './invitation.service.js';

/**
 * Who may make an account: anyone in `open` mode, only someone invited in `invite` mode, and in
 * `closed` mode only someone invited too (an invitation is an administrator's own decision). The
 * mode is the admin area's setting, else `SIGNUP`, read on every sign-up. In `invite` mode a server
 * without any account takes its first one, since nobody could invite it: that account becomes the
 * administrator. `closed` refuses every sign-up without an invitation, as the runtime contract says
 * (a closed server's first administrator is made from the shell or by opening sign-up once).
 */
export class SignupGate {
  constructor(
    private readonly signups: SignupRepository,
    private readonly invitationRows: InvitationRepository,
    private readonly invitations: InvitationService,
    private readonly settings: ServerSettingsService,
  ) {}

  async mode(): Promise<SignupMode> {
    return (await this.settings.get()).signup;
  }

  /** The mode as the sign-in screen shows it: `open` on an invite-only server still without accounts, which takes its first one. */
  async modeForNewcomers(): Promise<SignupMode> {
    const mode = await this.mode();
    return mode === 'invite' && !(await this.signups.hasAccount()) ? 'open' : mode;
  }

  /** Refuses a sign-up the mode does not allow; answers the invitation it comes with, if any. */
  async admit(email: string, invitationToken: string | undefined): Promise<InvitationRow | null> {
    if (invitationToken !== undefined) return this.invitations.forSignup(invitationToken, email);
    const mode = await this.mode();
    if (mode === 'open' || (mode === 'invite' && !(await this.signups.hasAccount()))) return null;
    throw mode === 'closed'
      ? new ForbiddenError('SIGNUP_CLOSED', 'Sign-up is closed')
      : new ForbiddenError('SIGNUP_INVITE_ONLY', 'Sign-up is by invitation only');
  }

  /**
   * Inserts an account admitted with an invitation, accepting it in the same transaction; false
   * when the e-mail is taken (the invitation stays open then).
   */
  async insertInvited(account: AccountRow, invitation: InvitationRow, now: number): Promise<boolean> {
    const outcome = await this.invitationRows.acceptWithAccount(invitation.id, account, now);
    if (outcome === 'invitation-gone') throw new NotFoundError('INVITATION_NOT_FOUND', 'This invitation does not exist or has expired');
    return outcome === 'created';
  }

  /** Whether the new account became the server's administrator (the earliest account, and no admin yet). */
  claimFirstAdmin(accountId: string): Promise<boolean> {
    return this.signups.claimFirstAdmin(accountId);
  }
}
