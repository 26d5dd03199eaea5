import type { Logger } from '../../logger.js';
import { LIMITS, type SecondFactorMethod, type UserDto } from '@nimbus/common';
import type { AccountRepository, AccountRow } from '../../db/repositories/account.repository.js';
import type { AccountTokenRepository } from '../../db/repositories/account-token.repository.js';
import type { KnownDeviceRepository } from '../../db/repositories/known-device.repository.js';
import type { LoginThrottleRepository, ThrottlePolicy } from '../../db/repositories/login-throttle.repository.js';
import type { AccountTokenPurpose } from '../../db/schema.js';
import { ConflictError, ForbiddenError, NotFoundError, TooManyError, UnauthorizedError, UnavailableError } from '../../domain/errors.js';
import type { Mailer, MailMessage } from '../../mail/mailer.js';
import { newSignInMessage, resetPasswordMessage, verifyEmailMessage } from '../../mail/templates.js';
import { hashToken, newId, newSecret } from '../../security/ids.js';
import { addressGroupOf } from '../../security/address-group.js';
import { admitHashing, dummyPasswordHash, hashPassword, verifyPassword } from '../../security/password.js';
import { reserveAttempts, type Limited } from './attempt-budget.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import type { SecurityRecorder } from './security-log.service.js';
import type { IssuedTokens, SessionOrigin, SessionService } from './session.service.js';
import type { SignupGate } from './signup-gate.js';
import type { SecondStepGate } from './two-factor.service.js';
import { describeUserAgent, deviceLabel } from './user-agent.js';

export interface AccountServiceOptions {
  appUrl: string;
  /** Sign-ups, reset e-mails and reset attempts per client address and hour; 0 for no limit. */
  accountRateLimit: number;
}

const FIFTEEN_MINUTES = { windowMs: LIMITS.loginFailureWindowMs, lockMs: LIMITS.loginLockMs };
/** Ten failures per e-mail and client address group, so nobody elsewhere can lock the owner out. */
const LOGIN_PER_EMAIL_AND_ADDRESS: ThrottlePolicy = { maxFailures: LIMITS.loginMaxFailures, ...FIFTEEN_MINUTES };
/** Guessing one account from many addresses; a device or network the account signed in from is not refused by it. */
const LOGIN_PER_EMAIL: ThrottlePolicy = { maxFailures: 10 * LIMITS.loginMaxFailures, ...FIFTEEN_MINUTES };
/** Guessing many accounts from one address group. */
const LOGIN_PER_ADDRESS: ThrottlePolicy = { maxFailures: 20 * LIMITS.loginMaxFailures, ...FIFTEEN_MINUTES };
/** How long a browser or network that signed in is remembered, and how many of them per account. */
const KNOWN_DEVICE_MS = 90 * 24 * 60 * 60_000;
const KNOWN_DEVICES_KEPT = 32;
/** A sign-in refused because its client already has password checks running: they take a fraction of a second. */
const BUSY_RETRY_SECONDS = 1;
/** Wrong current passwords on change-password: a stolen session is no password oracle. */
const PASSWORD_CHECKS: ThrottlePolicy = { maxFailures: LIMITS.loginMaxFailures, ...FIFTEEN_MINUTES };
const HOUR_MS = 60 * 60_000;

type EmailSlot = 'verifyEmailSentAt' | 'resetEmailSentAt';

/** A right password: signed in, or a second step to take first. */
export type PasswordSignIn =
  | { account: AccountRow; tokens: IssuedTokens; secondFactor?: undefined }
  | { account: AccountRow; secondFactor: { ticket: string; methods: SecondFactorMethod[] }; tokens?: undefined };

/** How a sign-in proved who the caller is. */
export type SignInMethod = 'password' | 'passkey' | 'oidc';

/**
 * What the server knows of where a sign-in comes from: a browser signed in to this account before
 * (its browser id, or a refresh token of it), only a network (address group) that did, or nothing.
 */
type Origin = 'own-browser' | 'known-network' | 'stranger';

/** The identity of an address: letter case and unicode composition (é typed as e + ´) do not matter. */
export function emailKeyOf(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

/** Browser ids and address groups are kept only as hashes. */
function browserKeyOf(browserId: string): string {
  return hashToken(`browser:${browserId}`);
}
function networkKeyOf(group: string): string {
  return hashToken(`network:${group}`);
}

function originOfSession(caller: Caller, signInMethod: SignInMethod): SessionOrigin {
  return { userAgent: caller.userAgent, clientAddress: caller.address, signInMethod };
}

export function toUserDto(row: AccountRow): UserDto {
  return { _id: row.id, email: row.email, emailVerified: row.emailVerified === 1, role: row.role };
}

export class AccountService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly tokens: AccountTokenRepository,
    private readonly throttle: LoginThrottleRepository,
    private readonly knownDevices: KnownDeviceRepository,
    private readonly sessions: SessionService,
    private readonly mailer: Mailer | null,
    private readonly clock: Clock,
    private readonly options: AccountServiceOptions,
    private readonly log: Logger,
    private readonly security: SecurityRecorder | null = null,
    private readonly signups: SignupGate | null = null,
    private readonly secondStep: SecondStepGate | null = null,
  ) {}

  /**
   * Signs up, as the sign-up mode allows (see SignupGate), or with an invitation: then the address
   * is taken as verified (the link reached it) and the invitation is spent in the same transaction.
   * The first account of a server becomes its administrator.
   */
  async create(
    input: { email: string; password: string; invitation?: string | undefined },
    browserId: string,
    caller: Caller,
  ): Promise<{ account: AccountRow; emailSent: boolean; tokens: IssuedTokens }> {
    const invitation = this.signups ? await this.signups.admit(input.email, input.invitation) : null;
    await this.rateLimit('create', caller.address);
    const now = this.clock.now();
    const email = input.email.trim();
    // Without e-mail there is no way to verify, so the address is taken as given.
    const verifyByMail = this.mailer !== null && invitation === null;
    const account: AccountRow = {
      id: newId(),
      email,
      emailKey: emailKeyOf(email),
      passwordHash: await hashPassword(input.password),
      emailVerified: verifyByMail ? 0 : 1,
      verifyEmailSentAt: verifyByMail ? now : null,
      resetEmailSentAt: null,
      createdAt: now,
      updatedAt: now,
      role: 'user',
      disabledAt: null,
      deletedAt: null,
      quotaBytes: null,
      lastActiveAt: now,
    };
    const inserted =
      invitation && this.signups ? await this.signups.insertInvited(account, invitation, now) : await this.accounts.insert(account);
    if (!inserted) throw new ConflictError('EMAIL_EXISTS', 'Email already exists');
    if (await this.signups?.claimFirstAdmin(account.id)) account.role = 'admin';
    const emailSent = verifyByMail ? await this.trySend(account, 'verify-email', caller.log) : false;
    if (verifyByMail && !emailSent) await this.accounts.releaseEmailSlot(account.id, 'verifyEmailSentAt', now);
    if (invitation) await this.security?.record(account.id, { type: 'account-created-by-invitation', caller });
    await this.rememberDevice(account.id, browserId, caller);
    return { account, emailSent, tokens: await this.sessions.start(account.id, browserId, originOfSession(caller, 'password')) };
  }

  /**
   * Signs in with the account password. Attempts are counted per e-mail and address group (the
   * hard limit), per address group and per e-mail; a browser that signed in to the account before
   * passes the last two, and a network that did passes the per-e-mail one, so guesses from
   * elsewhere never lock the owner out. A client gets two sign-ins in progress at a time: more are
   * refused at once rather than queued in front of everyone else's, and count toward its own limit.
   */
  async login(input: { email: string; password: string }, browserId: string, caller: Caller): Promise<PasswordSignIn> {
    const group = addressGroupOf(caller.address);
    const emailKey = emailKeyOf(input.email);
    const pair: Limited = [`login:${emailKey}|${group}`, LOGIN_PER_EMAIL_AND_ADDRESS];
    const place = admitHashing(group);
    if (!place) return this.refuseBusy(pair);
    let account: AccountRow | undefined;
    let valid = false;
    let origin: Origin = 'stranger';
    try {
      account = await this.accounts.findByEmailKey(emailKey);
      // Looked up for an unknown e-mail too, so the time taken does not tell whether the account exists.
      origin = await this.originOf(account?.id ?? '', browserId, group, caller.refreshToken);
      if (origin === 'stranger' && place.crowded) return await this.refuseBusy(pair);
      const perAddress: Limited = [`login-address:${group}`, LOGIN_PER_ADDRESS];
      const perEmail: Limited = [`login-email:${emailKey}`, LOGIN_PER_EMAIL];
      const refusing = [pair, ...(origin === 'own-browser' ? [] : [perAddress]), ...(origin === 'stranger' ? [perEmail] : [])];
      // Every attempt is counted before its password is checked: a burst gets no more tries than a sequence.
      await this.reserveAttempts(refusing, 'LOGIN_THROTTLED', 'Too many failed attempts; try again later');
      // A recognised origin's attempts still count toward the wider keys, for the strangers they hold back.
      const now = this.clock.now();
      for (const [key, policy] of [perAddress, perEmail].filter((k) => !refusing.includes(k)))
        await this.throttle.reserve(key, now, policy);
      // An account made by single sign-on has no password: its unknowable hash is checked all the same, for the timing.
      valid = (await verifyPassword(input.password, account?.passwordHash ?? (await dummyPasswordHash()))) && account?.hasPassword !== 0;
      if (account && valid) {
        await this.throttle.clear(pair[0]);
        for (const [key, policy] of [perAddress, perEmail]) await this.throttle.release(key, policy);
      }
    } finally {
      place.release();
    }
    if (!account || !valid) {
      // Only an existing account has a log to show it in; unknown addresses leave no trace.
      if (account) await this.security?.record(account.id, { type: 'sign-in-failed', caller });
      throw new UnauthorizedError('INVALID_CREDENTIALS', 'Incorrect email or password');
    }
    // Told only after the right password, so it says nothing to someone guessing.
    const active = account.disabledAt === null && account.deletedAt === null;
    const secondFactor = active ? await this.secondStep?.challenge(account.id, browserId, origin) : null;
    if (secondFactor) return { account, secondFactor };
    return this.completeSignIn(account, browserId, caller, 'password');
  }

  /** The second step of a password sign-in (see TwoFactorService): a code or a recovery code with the ticket of the first. */
  async passSecondFactor(
    input: { ticket: string } & ({ code: string } | { recoveryCode: string }),
    browserId: string,
    caller: Caller,
  ): Promise<{ account: AccountRow; tokens: IssuedTokens }> {
    if (!this.secondStep) throw new UnauthorizedError('INVALID_TICKET', 'This sign-in has expired; sign in again');
    const { ticket, ...proof } = input;
    const accountId = await this.secondStep.passSecondStep(ticket, browserId, proof, caller);
    return this.completeSignIn(await this.get(accountId), browserId, caller, 'password');
  }

  /** Two-factor required by the server, set up during sign-in: confirmed by a first code, then signed in. */
  async enableTwoFactorAndSignIn(
    ticket: string,
    code: string,
    browserId: string,
    caller: Caller,
  ): Promise<{ account: AccountRow; tokens: IssuedTokens; recoveryCodes: string[] }> {
    if (!this.secondStep) throw new UnauthorizedError('INVALID_TICKET', 'This sign-in has expired; sign in again');
    const { accountId, recoveryCodes } = await this.secondStep.enableWithTicket(ticket, browserId, code, caller);
    return { ...(await this.completeSignIn(await this.get(accountId), browserId, caller, 'password')), recoveryCodes };
  }

  /**
   * The end of every way of signing in, once the account is known to be the caller's (a password,
   * a passkey, a single sign-on provider): a disabled account is refused, the device remembered,
   * the sign-in logged and a session started.
   */
  async completeSignIn(
    account: AccountRow,
    browserId: string,
    caller: Caller,
    method: SignInMethod,
  ): Promise<{ account: AccountRow; tokens: IssuedTokens }> {
    if (account.disabledAt !== null || account.deletedAt !== null) throw new ForbiddenError('ACCOUNT_DISABLED', 'This account is disabled');
    await this.accounts.touchActive(account.id, this.clock.now());
    const newDevice = this.mailer !== null && (await this.isNewDevice(account.id, browserId, caller));
    await this.rememberDevice(account.id, browserId, caller);
    await this.security?.record(account.id, { type: 'sign-in', caller, ...(method === 'password' ? {} : { details: { kind: method } }) });
    const tokens = await this.sessions.start(account.id, browserId, originOfSession(caller, method));
    // Not awaited: a slow or unreachable mail server neither delays nor fails the sign-in.
    if (newDevice) void this.tellOfNewDevice(account, caller);
    return { account, tokens };
  }

  /**
   * A browser and network the account never signed in from (within the remembered 90 days), for
   * an account that has signed in before: its very first sign-in (after sign-up elsewhere, by an
   * administrator or a provider) has nothing to compare with.
   */
  private async isNewDevice(accountId: string, browserId: string, caller: Caller): Promise<boolean> {
    const since = this.clock.now() - KNOWN_DEVICE_MS;
    if (!(await this.knownDevices.hasAny(accountId, since))) return false;
    return (await this.originOf(accountId, browserId, addressGroupOf(caller.address), caller.refreshToken)) === 'stranger';
  }

  private async tellOfNewDevice(account: AccountRow, caller: Caller): Promise<void> {
    const device = deviceLabel(describeUserAgent(caller.userAgent));
    const message = newSignInMessage(
      account.email,
      { device, address: caller.address, at: new Date(this.clock.now()) },
      `${this.options.appUrl}/settings`,
    );
    try {
      await this.mailer?.send(message);
    } catch (err) {
      (caller.log ?? this.log).error({ err, accountId: account.id, purpose: 'new-sign-in' }, 'sending e-mail failed');
    }
  }

  /** A sign-in refused for its client having others in progress: it costs one write, and counts. */
  private async refuseBusy(pair: Limited): Promise<never> {
    await this.throttle.reserve(pair[0], this.clock.now(), pair[1]);
    throw new TooManyError('LOGIN_THROTTLED', 'Too many sign-in attempts at once; try again in a moment', BUSY_RETRY_SECONDS);
  }

  private async originOf(accountId: string, browserId: string, group: string, refreshToken: string | undefined): Promise<Origin> {
    const browser = browserKeyOf(browserId);
    const network = networkKeyOf(group);
    const known = await this.knownDevices.known(accountId, [browser, network], this.clock.now() - KNOWN_DEVICE_MS);
    if (known.has(browser) || (await this.sessions.isSignedInHere(accountId, refreshToken, browserId))) return 'own-browser';
    return known.has(network) ? 'known-network' : 'stranger';
  }

  private rememberDevice(accountId: string, browserId: string, caller: Caller): Promise<void> {
    const now = this.clock.now();
    return this.knownDevices.remember(accountId, [browserKeyOf(browserId), networkKeyOf(addressGroupOf(caller.address))], now, {
      keep: KNOWN_DEVICES_KEPT,
      since: now - KNOWN_DEVICE_MS,
    });
  }

  /**
   * Checks an e-mail and app password (WebDAV's Basic credentials), throttled like the sign-in form
   * but on keys of its own, so failures on one never lock the other. The secret is checked by one
   * indexed hash lookup, so only failures are counted: a sync client's thousands of requests cost
   * no writes. A locked key of the e-mail and address group, or of the address group, refuses even
   * the right password until the lock lapses; the e-mail's own lock refuses only wrong ones, since
   * an app password is one device's random 144-bit secret that no number of addresses can guess.
   */
  async verifyAppCredentials(
    email: string,
    password: string,
    caller: Caller,
    verify: (accountId: string, password: string) => Promise<boolean>,
  ): Promise<AccountRow> {
    const group = addressGroupOf(caller.address);
    const emailKey = emailKeyOf(email);
    const pair: Limited = [`dav:${emailKey}|${group}`, LOGIN_PER_EMAIL_AND_ADDRESS];
    const perAddress: Limited = [`dav-address:${group}`, LOGIN_PER_ADDRESS];
    const perEmail: Limited = [`dav-email:${emailKey}`, LOGIN_PER_EMAIL];
    const now = this.clock.now();
    for (const [key] of [pair, perAddress]) {
      const until = await this.throttle.lockedUntil(key, now);
      if (until) await this.refuseDav(emailKey, caller, now, until);
    }
    const account = await this.accounts.findByEmailKey(emailKey);
    if (account && (await verify(account.id, password))) {
      await this.accounts.touchActive(account.id, now);
      return account;
    }
    const emailLock = await this.throttle.lockedUntil(perEmail[0], now);
    if (emailLock) await this.refuseDav(emailKey, caller, now, emailLock);
    for (const [key, policy] of [pair, perAddress, perEmail]) await this.throttle.recordFailure(key, now, policy);
    if (account) await this.security?.record(account.id, { type: 'sign-in-failed', caller, details: { kind: 'webdav' } });
    throw new UnauthorizedError('INVALID_CREDENTIALS', 'Incorrect email or app password');
  }

  private async refuseDav(emailKey: string, caller: Caller, now: number, lockedUntil: number): Promise<never> {
    // The owner sees that a device or someone kept trying past the limit (once per lock-out window
    // at most: every refused request would otherwise push the rest of the log out).
    await this.recordDavLockOut(emailKey, caller, lockedUntil);
    throw new TooManyError('LOGIN_THROTTLED', 'Too many failed attempts; try again later', Math.ceil((lockedUntil - now) / 1000));
  }

  async get(accountId: string): Promise<AccountRow> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new UnauthorizedError();
    return account;
  }

  /**
   * Changes the password, ends every other session of the account and voids any e-mailed reset
   * link. Wrong current passwords count like failed logins; past the limit the session ends too.
   */
  async changePassword(
    accountId: string,
    currentSessionId: string,
    oldPassword: string,
    newPassword: string,
    caller?: Caller,
  ): Promise<void> {
    const account = await this.get(accountId);
    const checks: Limited = [`password-check:${account.id}`, PASSWORD_CHECKS];
    try {
      await this.reserveAttempts([checks], 'LOGIN_THROTTLED', 'Too many failed attempts; try again later');
    } catch (err) {
      await this.sessions.end(currentSessionId);
      throw err;
    }
    if (!(await verifyPassword(oldPassword, account.passwordHash))) throw new UnauthorizedError('WRONG_PASSWORD', 'Incorrect password');
    const now = this.clock.now();
    await this.accounts.setPasswordHash(account.id, await hashPassword(newPassword), now);
    await this.throttle.clear(checks[0]);
    await this.tokens.voidUnused(account.id, 'reset-password', now);
    await this.sessions.endAll(account.id, currentSessionId);
    await this.security?.record(account.id, { type: 'password-changed', ...(caller ? { caller } : {}) });
  }

  /**
   * Proof of the current password before a change a stolen session must not make (a new passkey):
   * counted under change-password's checks, so the two together are no password oracle.
   */
  async confirmPassword(accountId: string, password: string): Promise<void> {
    const account = await this.get(accountId);
    const checks: Limited = [`password-check:${account.id}`, PASSWORD_CHECKS];
    await this.reserveAttempts([checks], 'LOGIN_THROTTLED', 'Too many failed attempts; try again later');
    const valid = (await verifyPassword(password, account.passwordHash)) && account.hasPassword !== 0;
    if (!valid) throw new UnauthorizedError('INVALID_CREDENTIALS', 'Incorrect password');
    await this.throttle.clear(checks[0]);
  }

  /** Ends every session of the account, this one included. */
  async logoutAll(accountId: string, caller?: Caller): Promise<void> {
    await this.sessions.endAll(accountId);
    await this.security?.record(accountId, { type: 'logout-all', ...(caller ? { caller } : {}) });
  }

  async resendVerifyEmail(accountId: string, caller?: Caller): Promise<void> {
    this.requireMail();
    const account = await this.get(accountId);
    if (account.emailVerified === 1) throw new ConflictError('CONFLICT', 'Email already verified');
    await this.sendWithCooldown(account, 'verifyEmailSentAt', 'verify-email', caller?.log);
  }

  async verifyEmail(token: string): Promise<void> {
    const now = this.clock.now();
    const accountId = await this.tokens.consume(hashToken(token), 'verify-email', now);
    if (!accountId) throw new UnauthorizedError('INVALID_TOKEN', 'Invalid or expired token');
    await this.accounts.markEmailVerified(accountId, now);
  }

  async sendPasswordReset(email: string, caller: Caller): Promise<void> {
    this.requireMail();
    await this.rateLimit('send-password-reset', caller.address);
    const account = await this.accounts.findByEmailKey(emailKeyOf(email));
    if (!account) throw new NotFoundError('USER_NOT_FOUND', 'Email does not exist');
    await this.sendWithCooldown(account, 'resetEmailSentAt', 'reset-password', caller.log);
  }

  /**
   * A reset an administrator started: the same single-use link and e-mail as `sendPasswordReset`,
   * under the account's one-minute cooldown but no per-address limit. Without e-mail, or when
   * sending fails, the link is handed back for the administrator to pass on.
   */
  async startPasswordResetFor(accountId: string, log?: Logger): Promise<{ emailSent: boolean; link: string | null }> {
    const account = await this.get(accountId);
    const now = this.clock.now();
    if (!(await this.accounts.claimEmailSlot(account.id, 'resetEmailSentAt', now, LIMITS.emailCooldownMs)))
      this.refuseCooldown(account, 'resetEmailSentAt', now);
    const link = await this.issueLink(account, 'reset-password');
    if (this.mailer && (await this.sendLink(account, 'reset-password', link, log))) return { emailSent: true, link: null };
    return { emailSent: false, link };
  }

  /** Sets a new password from an e-mailed token; every session of the account ends. */
  async resetPassword(token: string, password: string, caller: Caller): Promise<void> {
    await this.rateLimit('reset-password', caller.address);
    const now = this.clock.now();
    const accountId = await this.tokens.consume(hashToken(token), 'reset-password', now);
    if (!accountId) throw new UnauthorizedError('INVALID_TOKEN', 'Invalid or expired token');
    const account = await this.get(accountId);
    await this.accounts.setPasswordHash(accountId, await hashPassword(password), now);
    // Receiving the e-mail proves the address.
    await this.accounts.markEmailVerified(accountId, now);
    await this.tokens.voidUnused(accountId, 'reset-password', now);
    await this.throttle.clear(`login-email:${account.emailKey}`);
    await this.throttle.clear(`password-check:${accountId}`);
    await this.sessions.endAll(accountId);
    await this.security?.record(accountId, { type: 'password-reset', caller });
  }

  /** Lock-out windows already in the log, per e-mail key (this process; pruned as they end). */
  private readonly refusalsLogged = new Map<string, number>();

  private async recordDavLockOut(emailKey: string, caller: Caller, lockedUntil: number): Promise<void> {
    if (!this.security || this.refusalsLogged.get(emailKey) === lockedUntil) return;
    const now = this.clock.now();
    if (this.refusalsLogged.size >= 10_000)
      for (const [key, until] of this.refusalsLogged) if (until <= now) this.refusalsLogged.delete(key);
    this.refusalsLogged.set(emailKey, lockedUntil);
    const account = await this.accounts.findByEmailKey(emailKey);
    if (account) await this.security.record(account.id, { type: 'sign-in-failed', caller, details: { kind: 'webdav-throttled' } });
  }

  private reserveAttempts(keys: Limited[], code: 'LOGIN_THROTTLED' | 'RATE_LIMITED', message: string): Promise<void> {
    return reserveAttempts(this.throttle, keys, this.clock.now(), { code, message });
  }

  private async rateLimit(action: string, clientAddress: string): Promise<void> {
    const max = this.options.accountRateLimit;
    if (max <= 0) return;
    await this.reserveAttempts(
      [[`${action}:${addressGroupOf(clientAddress)}`, { maxFailures: max, windowMs: HOUR_MS, lockMs: HOUR_MS }]],
      'RATE_LIMITED',
      'Too many requests; try again later',
    );
  }

  private requireMail(): void {
    if (!this.mailer) throw new ForbiddenError('EMAIL_DISABLED', 'Email is not enabled on this server');
  }

  private async sendWithCooldown(account: AccountRow, slot: EmailSlot, purpose: AccountTokenPurpose, log?: Logger): Promise<void> {
    const now = this.clock.now();
    if (!(await this.accounts.claimEmailSlot(account.id, slot, now, LIMITS.emailCooldownMs))) this.refuseCooldown(account, slot, now);
    if (!(await this.trySend(account, purpose, log))) {
      await this.accounts.releaseEmailSlot(account.id, slot, now);
      throw new UnavailableError('The e-mail could not be sent; try again later');
    }
  }

  private refuseCooldown(account: AccountRow, slot: EmailSlot, now: number): never {
    // The row read for this request tells how long is left; a racing request that just took the slot leaves a full minute.
    const waitMs = (account[slot] ?? now) + LIMITS.emailCooldownMs - now;
    throw new TooManyError('COOLDOWN', 'Please wait 1 minute before resending', Math.max(1, Math.ceil(waitMs / 1000)));
  }

  /** Issues a fresh single-use token (older ones become void) and e-mails its link. */
  private async trySend(account: AccountRow, purpose: AccountTokenPurpose, log: Logger = this.log): Promise<boolean> {
    return this.sendLink(account, purpose, await this.issueLink(account, purpose), log);
  }

  /** A fresh single-use token's link (older tokens of the purpose become void). */
  private async issueLink(account: AccountRow, purpose: AccountTokenPurpose): Promise<string> {
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
    return `${this.options.appUrl}/${purpose}/${token}`;
  }

  private async sendLink(account: AccountRow, purpose: AccountTokenPurpose, link: string, log: Logger = this.log): Promise<boolean> {
    const message: MailMessage =
      purpose === 'verify-email' ? verifyEmailMessage(account.email, link) : resetPasswordMessage(account.email, link);
    try {
      await this.mailer?.send(message);
      return true;
    } catch (err) {
      log.error({ err, accountId: account.id, purpose }, 'sending e-mail failed');
      return false;
    }
  }
}
