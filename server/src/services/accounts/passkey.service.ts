import { PASSKEY_LIMITS } from '@nimbus/common';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  WebAuthnCredential,
} from '@simplewebauthn/server';
import type { PasskeyRepository, PasskeyRow } from '../../db/repositories/passkey.repository.js';
import type { ThrottlePolicy, LoginThrottleRepository } from '../../db/repositories/login-throttle.repository.js';
import type { WebauthnChallengePurpose } from '../../db/schema.js';
import { ConflictError, InvalidError, NotFoundError, UnauthorizedError } from '../../domain/errors.js';
import { addressGroupOf } from '../../security/address-group.js';
import { hashToken, newId } from '../../security/ids.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { reserveAttempts } from './attempt-budget.js';
import type { AccountService } from './account.service.js';
import type { IssuedTokens } from './session.service.js';
import type { AccountRow } from '../../db/repositories/account.repository.js';
import type { SecurityRecorder } from './security-log.service.js';

export type { PasskeyRow } from '../../db/repositories/passkey.repository.js';

/** The WebAuthn library (with its X.509 and ASN.1 parsers), loaded at the first passkey request, not at start. */
const webauthn = () => import('@simplewebauthn/server');

/** The part of the second-factor tickets (helper T's SecondFactorTickets) a passkey step uses. */
export interface SignInTickets {
  peek(ticket: string, browserId: string): Promise<string>;
  consume(ticket: string, browserId: string): Promise<string>;
}

/** The part of TwoFactorService that checks a code from the app before a passkey is added. */
export interface TwoFactorCodes {
  isEnabled(accountId: string): Promise<boolean>;
  confirmCode(accountId: string, code: string, caller: Caller): Promise<void>;
}

/** What the caller knows, asked before a passkey is added: the password, or with two-factor on a code instead. */
export type AddPasskeyProof = { password?: string | undefined; code?: string | undefined };

export interface PasskeyServiceOptions {
  /** The server's public address (APP_URL): its origin is the only one accepted, its host the relying party id. */
  appUrl: string;
}

const FIFTEEN_MINUTES = 15 * 60_000;
/** Failed passkey answers per address group, as many as password guesses from one group. */
const SIGN_IN_PER_ADDRESS: ThrottlePolicy = { maxFailures: 100, windowMs: FIFTEEN_MINUTES, lockMs: FIFTEEN_MINUTES };
/** Challenges handed out per address group: each is a row until it is answered or expires. */
const CHALLENGES_PER_ADDRESS: ThrottlePolicy = { maxFailures: 300, windowMs: FIFTEEN_MINUTES, lockMs: FIFTEEN_MINUTES };

function refused(): UnauthorizedError {
  return new UnauthorizedError('PASSKEY_REFUSED', 'This passkey could not be verified');
}

/** The challenge a browser's answer claims to sign; its checks are the library's, this only reads it to spend it. */
function claimedChallenge(clientDataJSON: string): string {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (data as { challenge?: unknown }).challenge;
    if (typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 512) return challenge;
  } catch {
    // Malformed: refused below.
  }
  throw refused();
}

function browserKeyOf(browserId: string): string {
  return hashToken(`webauthn-browser:${browserId}`);
}

function credentialOf(row: PasskeyRow): WebAuthnCredential {
  return {
    id: row.credentialId,
    publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
    counter: Number(row.counter),
    transports: JSON.parse(row.transports) as AuthenticatorTransport[],
  };
}

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): registered by a signed-in account, then a
 * sign-in of their own (a discoverable credential names its account) or the second step after a
 * password. Every ceremony's challenge is made and kept here, bound to its purpose, account and
 * browser, and spent by the first answer, right or wrong.
 */
export class PasskeyService {
  private readonly rpID: string;
  private readonly origin: string;

  constructor(
    private readonly passkeys: PasskeyRepository,
    private readonly accounts: AccountService,
    private readonly throttle: LoginThrottleRepository,
    private readonly clock: Clock,
    options: PasskeyServiceOptions,
    private readonly security: SecurityRecorder | null = null,
    private readonly tickets: SignInTickets | null = null,
    private readonly twoFactor: TwoFactorCodes | null = null,
  ) {
    const url = new URL(options.appUrl);
    this.rpID = url.hostname;
    this.origin = url.origin;
  }

  /**
   * The challenge to add a passkey, only for proof of a factor the caller knows: a session alone
   * (perhaps signed in with a stolen password) must not add a passkey that outlives a password change.
   */
  async registrationOptions(
    account: AccountRow,
    browserId: string,
    caller: Caller,
    proof: AddPasskeyProof,
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    await this.confirmKnownFactor(account, proof, caller);
    const owned = await this.passkeys.listOwned(account.id);
    if (owned.length >= PASSKEY_LIMITS.maxPerAccount) throw tooMany();
    const options = await (
      await webauthn()
    ).generateRegistrationOptions({
      rpName: 'Nimbus',
      rpID: this.rpID,
      userName: account.email,
      userID: new TextEncoder().encode(account.id),
      attestationType: 'none',
      excludeCredentials: owned.map((p) => ({ id: p.credentialId, transports: JSON.parse(p.transports) as AuthenticatorTransport[] })),
      // Resident: a passkey signs in without an e-mail typed first.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      timeout: PASSKEY_LIMITS.challengeMs,
    });
    await this.keepChallenge(options.challenge, 'register', account.id, browserId, caller);
    return options;
  }

  /**
   * A code when two-factor is on and one is given; else the password. An account with no password
   * (made by single sign-on) has nothing to ask here: its identity provider guards its sign-ins.
   */
  private async confirmKnownFactor(account: AccountRow, proof: AddPasskeyProof, caller: Caller): Promise<void> {
    if (proof.code !== undefined && this.twoFactor && (await this.twoFactor.isEnabled(account.id))) {
      return this.twoFactor.confirmCode(account.id, proof.code, caller);
    }
    if (proof.password !== undefined) return this.accounts.confirmPassword(account.id, proof.password);
    if (account.hasPassword === 0) return;
    throw new InvalidError('Enter your current password to add a passkey', undefined, 'VALIDATION_FAILED');
  }

  async register(accountId: string, browserId: string, name: string, response: RegistrationResponseJSON): Promise<PasskeyRow> {
    const challenge = await this.spendChallenge(response.response.clientDataJSON, 'register', accountId, browserId);
    let verification;
    try {
      verification = await (
        await webauthn()
      ).verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        requireUserVerification: false,
      });
    } catch {
      throw refused();
    }
    if (!verification.verified) throw refused();
    const info = verification.registrationInfo;
    if ((await this.passkeys.countOwned(accountId)) >= PASSKEY_LIMITS.maxPerAccount) throw tooMany();
    if (await this.passkeys.findByCredentialId(info.credential.id))
      throw new ConflictError('CONFLICT', 'This passkey is already registered');
    const row: PasskeyRow = {
      id: newId(),
      accountId,
      name,
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: JSON.stringify(info.credential.transports ?? response.response.transports ?? []),
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp ? 1 : 0,
      createdAt: this.clock.now(),
      lastUsedAt: null,
    };
    await this.passkeys.insert(row);
    await this.security?.record(accountId, { type: 'passkey-added', details: { name } });
    return row;
  }

  list(accountId: string): Promise<PasskeyRow[]> {
    return this.passkeys.listOwned(accountId);
  }

  count(accountId: string): Promise<number> {
    return this.passkeys.countOwned(accountId);
  }

  async rename(accountId: string, id: string, name: string): Promise<PasskeyRow> {
    if (!(await this.passkeys.renameOwned(accountId, id, name))) throw notFound();
    await this.security?.record(accountId, { type: 'passkey-renamed', details: { name } });
    const row = (await this.passkeys.listOwned(accountId)).find((p) => p.id === id);
    if (!row) throw notFound();
    return row;
  }

  async remove(accountId: string, id: string): Promise<void> {
    // At most 20 rows: the name for the security log costs no query of its own.
    const name = (await this.passkeys.listOwned(accountId)).find((p) => p.id === id)?.name;
    if (!(await this.passkeys.deleteOwned(accountId, id))) throw notFound();
    await this.security?.record(accountId, { type: 'passkey-removed', ...(name ? { details: { name } } : {}) });
  }

  /** For a sign-in without an e-mail: no credentials are named, the browser offers the site's discoverable ones. */
  async signInOptions(browserId: string, caller: Caller): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await (
      await webauthn()
    ).generateAuthenticationOptions({
      rpID: this.rpID,
      userVerification: 'preferred',
      timeout: PASSKEY_LIMITS.challengeMs,
    });
    await this.keepChallenge(options.challenge, 'sign-in', null, browserId, caller);
    return options;
  }

  /** Signs in with a passkey alone: it is something owned and, verified by the device, something known. */
  async signIn(
    response: AuthenticationResponseJSON,
    browserId: string,
    caller: Caller,
  ): Promise<{ account: AccountRow; tokens: IssuedTokens }> {
    const account = await this.throttled(caller, async () => {
      const challenge = await this.spendChallenge(response.response.clientDataJSON, 'sign-in', null, browserId);
      const passkey = await this.passkeys.findByCredentialId(response.id);
      if (!passkey) throw refused();
      // A discoverable credential names its user; it must be the passkey's account.
      const userHandle = response.response.userHandle;
      if (userHandle !== undefined && Buffer.from(userHandle, 'base64url').toString('utf8') !== passkey.accountId) throw refused();
      await this.verifyAssertion(passkey, response, challenge);
      return this.accounts.get(passkey.accountId);
    });
    return this.accounts.completeSignIn(account, browserId, caller, 'passkey');
  }

  /** The second step of a password sign-in: the passkeys offered are the ticket's account's. */
  async secondFactorOptions(ticket: string, browserId: string, caller: Caller): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const accountId = await this.ticketsOrThrow().peek(ticket, browserId);
    const owned = await this.passkeys.listOwned(accountId);
    if (owned.length === 0) throw refused();
    const options = await (
      await webauthn()
    ).generateAuthenticationOptions({
      rpID: this.rpID,
      userVerification: 'preferred',
      timeout: PASSKEY_LIMITS.challengeMs,
      allowCredentials: owned.map((p) => ({ id: p.credentialId, transports: JSON.parse(p.transports) as AuthenticatorTransport[] })),
    });
    await this.keepChallenge(options.challenge, 'second-factor', accountId, browserId, caller);
    return options;
  }

  async secondFactor(
    ticket: string,
    response: AuthenticationResponseJSON,
    browserId: string,
    caller: Caller,
  ): Promise<{ account: AccountRow; tokens: IssuedTokens }> {
    const tickets = this.ticketsOrThrow();
    const account = await this.throttled(caller, async () => {
      const accountId = await tickets.peek(ticket, browserId);
      const challenge = await this.spendChallenge(response.response.clientDataJSON, 'second-factor', accountId, browserId);
      const passkey = await this.passkeys.findByCredentialId(response.id);
      if (!passkey || passkey.accountId !== accountId) throw refused();
      await this.verifyAssertion(passkey, response, challenge);
      // Spent only now: a wrong answer leaves the password's ticket for another try.
      if ((await tickets.consume(ticket, browserId)) !== accountId) throw refused();
      return this.accounts.get(accountId);
    });
    return this.accounts.completeSignIn(account, browserId, caller, 'passkey');
  }

  private async verifyAssertion(passkey: PasskeyRow, response: AuthenticationResponseJSON, challenge: string): Promise<void> {
    const credential = credentialOf(passkey);
    let verification;
    try {
      // Refuses a counter that did not move forward (a cloned authenticator), another origin, a bad signature.
      verification = await (
        await webauthn()
      ).verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.origin,
        expectedRPID: this.rpID,
        credential,
        requireUserVerification: false,
      });
    } catch {
      throw refused();
    }
    if (!verification.verified) throw refused();
    const info = verification.authenticationInfo;
    if (!(await this.passkeys.recordUse(passkey.id, credential.counter, info.newCounter, info.credentialBackedUp, this.clock.now()))) {
      throw refused();
    }
  }

  /** Failed answers count per address group, like password guesses; a success gives its attempt back. */
  private async throttled<T>(caller: Caller, attempt: () => Promise<T>): Promise<T> {
    const key = `passkey-address:${addressGroupOf(caller.address)}`;
    await reserveAttempts(this.throttle, [[key, SIGN_IN_PER_ADDRESS]], this.clock.now(), {
      code: 'LOGIN_THROTTLED',
      message: 'Too many failed attempts; try again later',
    });
    const result = await attempt();
    await this.throttle.release(key, SIGN_IN_PER_ADDRESS);
    return result;
  }

  private async keepChallenge(
    challenge: string,
    purpose: WebauthnChallengePurpose,
    accountId: string | null,
    browserId: string,
    caller: Caller,
  ): Promise<void> {
    const now = this.clock.now();
    await reserveAttempts(this.throttle, [[`passkey-challenge:${addressGroupOf(caller.address)}`, CHALLENGES_PER_ADDRESS]], now, {
      code: 'RATE_LIMITED',
      message: 'Too many passkey requests; try again later',
    });
    await this.passkeys.deleteExpiredChallenges(now);
    await this.passkeys.insertChallenge({
      challengeHash: hashToken(challenge),
      purpose,
      accountId,
      browserKey: browserKeyOf(browserId),
      expiresAt: now + PASSKEY_LIMITS.challengeMs,
    });
  }

  /** Spends the challenge the answer claims before anything else is checked: one answer per challenge, right or wrong. */
  private async spendChallenge(
    clientDataJSON: string,
    purpose: WebauthnChallengePurpose,
    accountId: string | null,
    browserId: string,
  ): Promise<string> {
    const challenge = claimedChallenge(clientDataJSON);
    const spent = await this.passkeys.consumeChallenge(
      { challengeHash: hashToken(challenge), purpose, accountId, browserKey: browserKeyOf(browserId) },
      this.clock.now(),
    );
    if (!spent) throw refused();
    return challenge;
  }

  private ticketsOrThrow(): SignInTickets {
    if (!this.tickets) throw new NotFoundError('NOT_FOUND', 'Two-factor sign-in is not available');
    return this.tickets;
  }
}

function tooMany(): ConflictError {
  return new ConflictError('CONFLICT', `An account can have at most ${PASSKEY_LIMITS.maxPerAccount} passkeys`);
}

function notFound(): NotFoundError {
  return new NotFoundError('NOT_FOUND', 'Passkey not found');
}
