import { LIMITS, type UserDto } from '@nimbus/common';
import type { AccountRepository, AccountRow } from '../db/repositories/account.repository.js';
import type { AccountTokenRepository } from '../db/repositories/account-token.repository.js';
import type { LoginThrottleRepository } from '../db/repositories/login-throttle.repository.js';
import type { AccountTokenPurpose } from '../db/schema.js';
import { ConflictError, ForbiddenError, NotFoundError, TooManyError, UnauthorizedError, UnavailableError } from '../domain/errors.js';
import type { Mailer, MailMessage } from '../mail/mailer.js';
import { resetPasswordMessage, verifyEmailMessage } from '../mail/templates.js';
import { hashToken, newId, newSecret } from '../security/ids.js';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../security/password.js';
import type { Clock } from './clock.js';
import type { IssuedTokens, SessionService } from './session.service.js';

export interface AccountServiceOptions {
  signupOpen: boolean;
  appUrl: string;
}

export interface Logger {
  error(obj: unknown, msg?: string): void;
}

type EmailSlot = 'verifyEmailSentAt' | 'resetEmailSentAt';

/** The identity of an address: letter case and unicode composition (é typed as e + ´) do not matter. */
export function emailKeyOf(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

export function toUserDto(row: AccountRow): UserDto {
  return { _id: row.id, email: row.email, emailVerified: row.emailVerified === 1 };
}

export class AccountService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly tokens: AccountTokenRepository,
    private readonly throttle: LoginThrottleRepository,
    private readonly sessions: SessionService,
    private readonly mailer: Mailer | null,
    private readonly clock: Clock,
    private readonly options: AccountServiceOptions,
    private readonly log: Logger,
  ) {}

  async create(
    input: { email: string; password: string },
    browserId: string,
  ): Promise<{ account: AccountRow; emailSent: boolean; tokens: IssuedTokens }> {
    if (!this.options.signupOpen) throw new ForbiddenError('SIGNUP_CLOSED', 'Sign-up is closed');
    const now = this.clock.now();
    const email = input.email.trim();
    const account: AccountRow = {
      id: newId(),
      email,
      emailKey: emailKeyOf(email),
      passwordHash: await hashPassword(input.password),
      // Without e-mail there is no way to verify, so the address is taken as given.
      emailVerified: this.mailer ? 0 : 1,
      verifyEmailSentAt: this.mailer ? now : null,
      resetEmailSentAt: null,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.accounts.insert(account))) throw new ConflictError('EMAIL_EXISTS', 'Email already exists');
    const emailSent = this.mailer ? await this.trySend(account, 'verify-email') : false;
    if (this.mailer && !emailSent) await this.accounts.releaseEmailSlot(account.id, 'verifyEmailSentAt', now);
    return { account, emailSent, tokens: await this.sessions.start(account.id, browserId) };
  }

  async login(input: { email: string; password: string }, browserId: string): Promise<{ account: AccountRow; tokens: IssuedTokens }> {
    const now = this.clock.now();
    const emailKey = emailKeyOf(input.email);
    const lockedUntil = await this.throttle.lockedUntil(emailKey, now);
    if (lockedUntil)
      throw new TooManyError('LOGIN_THROTTLED', 'Too many failed attempts; try again later', Math.ceil((lockedUntil - now) / 1000));
    const account = await this.accounts.findByEmailKey(emailKey);
    const valid = await verifyPassword(input.password, account?.passwordHash ?? DUMMY_PASSWORD_HASH);
    if (!account || !valid) {
      await this.throttle.recordFailure(emailKey, now, {
        maxFailures: LIMITS.loginMaxFailures,
        windowMs: LIMITS.loginFailureWindowMs,
        lockMs: LIMITS.loginLockMs,
      });
      throw new UnauthorizedError('INVALID_CREDENTIALS', 'Incorrect email or password');
    }
    await this.throttle.clear(emailKey);
    return { account, tokens: await this.sessions.start(account.id, browserId) };
  }

  async get(accountId: string): Promise<AccountRow> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new UnauthorizedError();
    return account;
  }

  /** Changes the password and ends every other session of the account. */
  async changePassword(accountId: string, currentSessionId: string, oldPassword: string, newPassword: string): Promise<void> {
    const account = await this.get(accountId);
    if (!(await verifyPassword(oldPassword, account.passwordHash))) throw new UnauthorizedError('WRONG_PASSWORD', 'Incorrect password');
    await this.accounts.setPasswordHash(account.id, await hashPassword(newPassword), this.clock.now());
    await this.sessions.endAll(account.id, currentSessionId);
  }

  async resendVerifyEmail(accountId: string): Promise<void> {
    this.requireMail();
    const account = await this.get(accountId);
    if (account.emailVerified === 1) throw new ConflictError('CONFLICT', 'Email already verified');
    await this.sendWithCooldown(account, 'verifyEmailSentAt', 'verify-email');
  }

  async verifyEmail(token: string): Promise<void> {
    const now = this.clock.now();
    const accountId = await this.tokens.consume(hashToken(token), 'verify-email', now);
    if (!accountId) throw new UnauthorizedError('INVALID_TOKEN', 'Invalid or expired token');
    await this.accounts.markEmailVerified(accountId, now);
  }

  async sendPasswordReset(email: string): Promise<void> {
    this.requireMail();
    const account = await this.accounts.findByEmailKey(emailKeyOf(email));
    if (!account) throw new NotFoundError('USER_NOT_FOUND', 'Email does not exist');
    await this.sendWithCooldown(account, 'resetEmailSentAt', 'reset-password');
  }

  /** Sets a new password from an e-mailed token; every session of the account ends. */
  async resetPassword(token: string, password: string): Promise<void> {
    const now = this.clock.now();
    const accountId = await this.tokens.consume(hashToken(token), 'reset-password', now);
    if (!accountId) throw new UnauthorizedError('INVALID_TOKEN', 'Invalid or expired token');
    const account = await this.get(accountId);
    await this.accounts.setPasswordHash(accountId, await hashPassword(password), now);
    // Receiving the e-mail proves the address.
    await this.accounts.markEmailVerified(accountId, now);
    await this.throttle.clear(account.emailKey);
    await this.sessions.endAll(accountId);
  }

  private requireMail(): void {
    if (!this.mailer) throw new ForbiddenError('EMAIL_DISABLED', 'Email is not enabled on this server');
  }

  private async sendWithCooldown(account: AccountRow, slot: EmailSlot, purpose: AccountTokenPurpose): Promise<void> {
    const now = this.clock.now();
    if (!(await this.accounts.claimEmailSlot(account.id, slot, now, LIMITS.emailCooldownMs))) {
      // The row read for this request tells how long is left; a racing request that just took the slot leaves a full minute.
      const waitMs = (account[slot] ?? now) + LIMITS.emailCooldownMs - now;
      throw new TooManyError('COOLDOWN', 'Please wait 1 minute before resending', Math.max(1, Math.ceil(waitMs / 1000)));
    }
    if (!(await this.trySend(account, purpose))) {
      await this.accounts.releaseEmailSlot(account.id, slot, now);
      throw new UnavailableError('The e-mail could not be sent; try again later');
    }
  }

  /** Issues a fresh single-use token (older ones become void) and e-mails its link. */
  private async trySend(account: AccountRow, purpose: AccountTokenPurpose): Promise<boolean> {
    const now = this.clock.now();
    const token = newSecret();
    const ttl = purpose === 'verify-email' ? LIMITS.verifyEmailTokenMs : LIMITS.resetPasswordTokenMs;
    await this.tokens.voidUnused(account.id, purpose, now);
    await this.tokens.insert({
      tokenHash: hashToken(token),
      accountId: account.id,
      purpose,
      expiresAt: now + ttl,
      usedAt: null,
      createdAt: now,
    });
    const link = `${this.options.appUrl}/${purpose}/${token}`;
    const message: MailMessage =
      purpose === 'verify-email' ? verifyEmailMessage(account.email, link) : resetPasswordMessage(account.email, link);
    try {
      await this.mailer?.send(message);
      return true;
    } catch (err) {
      this.log.error({ err, accountId: account.id, purpose }, 'sending e-mail failed');
      return false;
    }
  }
}
