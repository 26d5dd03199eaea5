import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { LIMITS, TWO_FACTOR_LIMITS, type SecondFactorMethod, type TwoFactorSetupDto, type TwoFactorStatusDto } from '@nimbus/common';
import type { LoginThrottleRepository, ThrottlePolicy } from '../../db/repositories/login-throttle.repository.js';
import type { TwoFactorRepository, TwoFactorRow } from '../../db/repositories/two-factor.repository.js';
import { ConflictError, ForbiddenError, UnauthorizedError } from '../../domain/errors.js';
import { addressGroupOf } from '../../security/address-group.js';
import { hashToken } from '../../security/ids.js';
import type { SecretBox } from '../../security/secret-box.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { reserveAttempts, type Limited } from './attempt-budget.js';
import type { SecondFactorTickets } from './second-factor-tickets.js';
import type { SecurityRecorder } from './security-log.service.js';

const PERIOD_SECONDS = 30;
/** One step either side: a phone's clock a little off, or a code typed as it turned over. */
const WINDOW_STEPS = 1;
const FIFTEEN_MINUTES = { windowMs: LIMITS.loginFailureWindowMs, lockMs: LIMITS.loginLockMs };
/** Wrong codes per account and client address group, as for passwords. */
const CODES_PER_ACCOUNT_AND_ADDRESS: ThrottlePolicy = { maxFailures: LIMITS.loginMaxFailures, ...FIFTEEN_MINUTES };
/** Wrong codes for one account from many addresses (someone who has the password). */
const CODES_PER_ACCOUNT: ThrottlePolicy = { maxFailures: 10 * LIMITS.loginMaxFailures, ...FIFTEEN_MINUTES };
/** Letters and digits that cannot be mistaken for one another (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const ISSUER = 'Nimbus';

/** Where a password sign-in comes from, as AccountService.login tells it. */
export type SignInOrigin = 'own-browser' | 'known-network' | 'stranger';

/** What a right password leads to: straight in (null), or a second step. */
export interface SecondStepGate {
  challenge(accountId: string, browserId: string, origin: SignInOrigin): Promise<{ ticket: string; methods: SecondFactorMethod[] } | null>;
  passSecondStep(ticket: string, browserId: string, proof: { code: string } | { recoveryCode: string }, caller: Caller): Promise<string>;
  enableWithTicket(
    ticket: string,
    browserId: string,
    code: string,
    caller: Caller,
  ): Promise<{ accountId: string; recoveryCodes: string[] }>;
}

export interface TwoFactorServiceDeps {
  repository: TwoFactorRepository;
  tickets: SecondFactorTickets;
  throttle: LoginThrottleRepository;
  secrets: SecretBox;
  security: SecurityRecorder | null;
  clock: Clock;
  /** The account's e-mail, for the authenticator app's label. */
  emailOf: (accountId: string) => Promise<string>;
  /** Whether an administrator requires two-factor for every account. */
  isRequired: () => Promise<boolean>;
  /** How many passkeys the account has (each can be the second step); 0 while passkeys do not exist. */
  passkeysOf?: (accountId: string) => Promise<number>;
}

function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase();
}

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

function wrongCode(): UnauthorizedError {
  return new UnauthorizedError('INVALID_CODE', 'That code is not right, or was already used');
}

function notEnabled(): ConflictError {
  return new ConflictError('TWO_FACTOR_NOT_ENABLED', 'Two-factor sign-in is not on for this account');
}

/**
 * Two-factor codes (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, one step either side) and recovery
 * codes. The secret is kept sealed with the server's key; a time step once accepted is refused
 * after, so a code seen over a shoulder is worth nothing; wrong codes are throttled like passwords.
 * Also the second step of a password sign-in (see SecondStepGate and SecondFactorTickets).
 */
export class TwoFactorService implements SecondStepGate {
  constructor(private readonly deps: TwoFactorServiceDeps) {}

  async status(accountId: string): Promise<TwoFactorStatusDto> {
    const [row, required] = await Promise.all([this.deps.repository.find(accountId), this.deps.isRequired()]);
    const enabled = row?.enabledAt != null;
    return { enabled, recoveryCodesLeft: enabled ? await this.deps.repository.recoveryCodesLeft(accountId) : 0, required };
  }

  /** A new secret, pending until a first code confirms it; a pending one before it is replaced. */
  async setup(accountId: string): Promise<TwoFactorSetupDto> {
    const secret = new Secret({ size: 20 });
    const cipher = this.deps.secrets.seal(secret.base32, accountId);
    if (!(await this.deps.repository.savePending(accountId, cipher, this.deps.clock.now()))) {
      throw new ConflictError('TWO_FACTOR_ENABLED', 'Two-factor sign-in is already on; turn it off first');
    }
    const totp = this.totpOf(secret, await this.deps.emailOf(accountId));
    return { secret: secret.base32, otpauthUrl: totp.toString() };
  }

  /** Confirms the pending secret with a first code; answers the recovery codes, shown once. */
  async enable(accountId: string, code: string, caller: Caller): Promise<string[]> {
    const row = await this.deps.repository.find(accountId);
    if (!row || row.enabledAt !== null) throw notEnabled();
    await this.checkTotp(row, code, caller);
    const codes = this.newRecoveryCodes();
    if (
      !(await this.deps.repository.enable(
        accountId,
        this.deps.clock.now(),
        codes.map((c) => this.recoveryHash(accountId, c)),
      ))
    ) {
      throw notEnabled();
    }
    await this.deps.security?.record(accountId, { type: 'two-factor-enabled', caller });
    return codes;
  }

  /** Ten new recovery codes in place of the old ones, for a code from the app. */
  async renewRecoveryCodes(accountId: string, code: string, caller: Caller): Promise<string[]> {
    const row = await this.enabledRow(accountId);
    await this.checkTotp(row, code, caller);
    const codes = this.newRecoveryCodes();
    await this.deps.repository.replaceRecoveryCodes(
      accountId,
      codes.map((c) => this.recoveryHash(accountId, c)),
    );
    await this.deps.security?.record(accountId, { type: 'recovery-codes-made', caller });
    return codes;
  }

  /** Turns two-factor off, for a code from the app or a recovery code; not while the server requires it. */
  async disable(accountId: string, code: string, caller: Caller): Promise<void> {
    const row = await this.enabledRow(accountId);
    if (await this.deps.isRequired()) throw required('This server requires two-factor sign-in; it cannot be turned off');
    await this.checkAnyCode(row, code, caller);
    await this.deps.repository.remove(accountId);
    await this.deps.security?.record(accountId, { type: 'two-factor-disabled', caller });
  }

  /** An administrator turns it off for an account locked out of it; false when it was off. */
  reset(accountId: string): Promise<boolean> {
    return this.deps.repository.remove(accountId);
  }

  /** A code from the app as proof before a change a stolen session must not make (a new passkey). */
  async confirmCode(accountId: string, code: string, caller: Caller): Promise<void> {
    await this.checkTotp(await this.enabledRow(accountId), code, caller);
  }

  async isEnabled(accountId: string): Promise<boolean> {
    return this.deps.repository.isEnabled(accountId);
  }

  enabledAmong(accountIds: readonly string[]): Promise<Set<string>> {
    return this.deps.repository.enabledAmong(accountIds);
  }

  /**
   * After a right password: a ticket for the second step when the account has two-factor on; a
   * ticket that only sets it up when the server requires it and the account has none, given only
   * to a browser that signed in to the account before (so a stolen password alone, used from
   * elsewhere, cannot enrol the thief's own authenticator); null to sign in at once.
   */
  async challenge(
    accountId: string,
    browserId: string,
    origin: SignInOrigin,
  ): Promise<{ ticket: string; methods: SecondFactorMethod[] } | null> {
    if (await this.deps.repository.isEnabled(accountId)) {
      const passkeys = (await this.deps.passkeysOf?.(accountId)) ?? 0;
      const methods: SecondFactorMethod[] = ['totp', 'recovery', ...(passkeys > 0 ? (['passkey'] as const) : [])];
      return { ticket: await this.deps.tickets.issue(accountId, browserId), methods };
    }
    if (!(await this.deps.isRequired())) return null;
    if (origin !== 'own-browser') {
      throw required(
        'This server requires two-factor sign-in. Set it up from a browser you signed in with before, or ask an administrator',
      );
    }
    return { ticket: await this.deps.tickets.issue(accountId, browserId, 'setup'), methods: ['setup'] };
  }

  /** The second step of a sign-in: the ticket's account, once the code is right; the ticket is spent. */
  async passSecondStep(
    ticket: string,
    browserId: string,
    proof: { code: string } | { recoveryCode: string },
    caller: Caller,
  ): Promise<string> {
    const accountId = await this.deps.tickets.peek(ticket, browserId);
    const row = await this.enabledRow(accountId).catch(() => {
      throw new UnauthorizedError('INVALID_TICKET', 'This sign-in has expired; sign in again');
    });
    try {
      if ('code' in proof) await this.checkTotp(row, proof.code, caller);
      else await this.checkRecoveryCode(row, proof.recoveryCode, caller);
    } catch (error) {
      if (error instanceof UnauthorizedError) await this.deps.security?.record(accountId, { type: 'sign-in-second-factor-failed', caller });
      throw error;
    }
    return this.deps.tickets.consume(ticket, browserId);
  }

  /** A required setup, with the ticket of the sign-in that led to it. */
  async setupWithTicket(ticket: string, browserId: string): Promise<TwoFactorSetupDto> {
    return this.setup(await this.deps.tickets.peek(ticket, browserId, 'setup'));
  }

  /** Confirms a required setup; answers the account (to sign in) and its recovery codes. The ticket is spent. */
  async enableWithTicket(
    ticket: string,
    browserId: string,
    code: string,
    caller: Caller,
  ): Promise<{ accountId: string; recoveryCodes: string[] }> {
    const accountId = await this.deps.tickets.peek(ticket, browserId, 'setup');
    const recoveryCodes = await this.enable(accountId, code, caller);
    await this.deps.tickets.consume(ticket, browserId, 'setup');
    return { accountId, recoveryCodes };
  }

  private async enabledRow(accountId: string): Promise<TwoFactorRow> {
    const row = await this.deps.repository.find(accountId);
    if (!row || row.enabledAt === null) throw notEnabled();
    return row;
  }

  private totpOf(secret: Secret, label: string): TOTP {
    return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret });
  }

  private newRecoveryCodes(): string[] {
    return Array.from({ length: TWO_FACTOR_LIMITS.recoveryCodes }, newRecoveryCode);
  }

  private recoveryHash(accountId: string, code: string): string {
    return hashToken(`recovery:${accountId}:${normalizeRecoveryCode(code)}`);
  }

  private async checkAnyCode(row: TwoFactorRow, code: string, caller: Caller): Promise<void> {
    if (/^\s*\d{3}\s?\d{3}\s*$/.test(code)) await this.checkTotp(row, code, caller);
    else await this.checkRecoveryCode(row, code, caller);
  }

  /** Counted before it is checked (like a password); a right code gives its attempt back. */
  private async checkTotp(row: TwoFactorRow, code: string, caller: Caller): Promise<void> {
    const keys = await this.reserve(row.accountId, caller);
    const secret = this.deps.secrets.open(row.secretCipher, row.accountId);
    if (secret === null) throw new Error(`The two-factor secret of account ${row.accountId} does not open with this server's key`);
    const now = this.deps.clock.now();
    const delta = this.totpOf(Secret.fromBase32(secret), '').validate({
      token: code.replace(/\s/g, ''),
      timestamp: now,
      window: WINDOW_STEPS,
    });
    const step = TOTP.counter({ period: PERIOD_SECONDS, timestamp: now }) + (delta ?? 0);
    if (delta === null || !(await this.deps.repository.useStep(row.accountId, step))) throw wrongCode();
    await this.release(keys);
  }

  private async checkRecoveryCode(row: TwoFactorRow, code: string, caller: Caller): Promise<void> {
    const keys = await this.reserve(row.accountId, caller);
    const used = await this.deps.repository.useRecoveryCode(row.accountId, this.recoveryHash(row.accountId, code), this.deps.clock.now());
    if (!used) throw wrongCode();
    await this.release(keys);
    await this.deps.security?.record(row.accountId, { type: 'recovery-code-used', caller });
  }

  private async reserve(accountId: string, caller: Caller): Promise<Limited[]> {
    const keys: Limited[] = [
      [`2fa:${accountId}|${addressGroupOf(caller.address)}`, CODES_PER_ACCOUNT_AND_ADDRESS],
      [`2fa-account:${accountId}`, CODES_PER_ACCOUNT],
    ];
    await reserveAttempts(this.deps.throttle, keys, this.deps.clock.now(), {
      code: 'LOGIN_THROTTLED',
      message: 'Too many wrong codes; try again later',
    });
    return keys;
  }

  private async release(keys: Limited[]): Promise<void> {
    for (const [key, policy] of keys) await this.deps.throttle.release(key, policy);
  }
}

function required(message: string): ForbiddenError {
  return new ForbiddenError('TWO_FACTOR_REQUIRED', message);
}
