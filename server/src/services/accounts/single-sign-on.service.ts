import type { SsoError } from '@nimbus/common';
import type { Configuration as ProviderConfiguration } from 'openid-client';
import type { OidcConfig } from '../../config.js';
import type { AccountRepository, AccountRow } from '../../db/repositories/account.repository.js';
import type { OidcRepository } from '../../db/repositories/oidc.repository.js';
import { DomainError } from '../../domain/errors.js';
import { hashToken, newId, newSecret } from '../../security/ids.js';
import { hashPassword } from '../../security/password.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { emailKeyOf, type AccountService } from './account.service.js';
import type { IssuedTokens } from './session.service.js';
import type { SignupGate } from './signup-gate.js';

/** From the redirect to the provider to its return: long enough to type a password and a code. */
const LOGIN_TTL_MS = 10 * 60_000;
const PROVIDER_TIMEOUT_S = 10;

/** The OpenID Connect client, loaded at the first single sign-on, not at start. */
const openidClient = () => import('openid-client');

/** A single sign-on refused; the browser is sent back to the login screen with this code. */
export class SsoFailure extends Error {
  constructor(
    readonly code: SsoError,
    message: string,
  ) {
    super(message);
    this.name = 'SsoFailure';
  }
}

/**
 * Signing in through an OpenID Connect provider, by openid-client: the authorization code flow
 * with PKCE (S256), state and nonce. An account is found by the provider's identity (issuer and
 * subject) once linked, else by an e-mail the provider says it verified; or made, when sign-up is
 * open, without a password. The state travels in the redirect and in a cookie of the browser that
 * started (so nobody can make another browser finish their sign-in); the rest stays in a row.
 */
export class SingleSignOnService {
  private discovered: Promise<ProviderConfiguration> | null = null;

  constructor(
    private readonly config: OidcConfig,
    private readonly callbackUrl: string,
    private readonly logins: OidcRepository,
    private readonly accountRows: AccountRepository,
    private readonly accounts: AccountService,
    private readonly signups: SignupGate,
    private readonly clock: Clock,
  ) {}

  get label(): string {
    return this.config.buttonLabel;
  }

  /** The provider's authorization address, and the state the browser must keep in a cookie. */
  async start(browserId: string): Promise<{ redirectTo: string; state: string }> {
    const provider = await this.provider();
    const oidc = await openidClient();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const now = this.clock.now();
    await this.logins.insertLogin(
      { stateHash: hashToken(`oidc:${state}`), nonce, codeVerifier, browserId, expiresAt: now + LOGIN_TTL_MS },
      now,
    );
    const url = oidc.buildAuthorizationUrl(provider, {
      redirect_uri: this.callbackUrl,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { redirectTo: url.href, state };
  }

  /**
   * The provider's return to `currentUrl`, in the browser holding `cookieState`: the code is
   * traded, the identity matched to an account, and a session started as a password sign-in would.
   */
  async finish(currentUrl: URL, cookieState: string | undefined, caller: Caller): Promise<{ account: AccountRow; tokens: IssuedTokens }> {
    const state = currentUrl.searchParams.get('state');
    if (!state || !cookieState || state !== cookieState) throw new SsoFailure('invalid_state', 'The state is not this browser’s');
    const login = await this.logins.takeLogin(hashToken(`oidc:${state}`));
    if (!login || login.expiresAt <= this.clock.now()) throw new SsoFailure('invalid_state', 'Unknown, used or expired state');
    const identity = await this.identityOf(currentUrl, login);
    const account = await this.accountFor(identity);
    try {
      return await this.accounts.completeSignIn(account, login.browserId, caller, 'oidc');
    } catch (err) {
      if (err instanceof DomainError && err.code === 'ACCOUNT_DISABLED') throw new SsoFailure('account_disabled', err.message);
      throw err;
    }
  }

  private async identityOf(
    currentUrl: URL,
    login: { nonce: string; codeVerifier: string },
  ): Promise<{ subject: string; email: string | null; emailVerified: boolean }> {
    const provider = await this.provider();
    const oidc = await openidClient();
    try {
      const tokens = await oidc.authorizationCodeGrant(provider, currentUrl, {
        pkceCodeVerifier: login.codeVerifier,
        expectedState: currentUrl.searchParams.get('state') ?? undefined,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      // Providers put e-mail in the ID token or only in userinfo; userinfo answers for both.
      const info = await oidc.fetchUserInfo(provider, tokens.access_token, claims.sub);
      const email = typeof info.email === 'string' ? info.email : null;
      return { subject: claims.sub, email, emailVerified: info.email_verified === true };
    } catch (err) {
      throw new SsoFailure('provider_error', `The provider refused the sign-in: ${(err as Error).message}`);
    }
  }

  private async accountFor(identity: { subject: string; email: string | null; emailVerified: boolean }): Promise<AccountRow> {
    const issuer = this.config.issuer;
    const now = this.clock.now();
    const linkedId = await this.logins.accountOfIdentity(issuer, identity.subject);
    const linked = linkedId ? await this.accountRows.findById(linkedId) : undefined;
    if (linked) return linked;
    if (!identity.email || !identity.emailVerified) throw new SsoFailure('unverified_email', 'The provider did not verify the e-mail');
    const existing = await this.accountRows.findByEmailKey(emailKeyOf(identity.email));
    if (existing) {
      // Someone may have signed up with the address without owning it: linking would hand the owner their account.
      if (existing.emailVerified !== 1) throw new SsoFailure('unverified_account', 'The matching account has not verified its address');
      await this.logins.link(issuer, identity.subject, existing.id, now);
      return existing;
    }
    const account = await this.createAccount(identity.email, now);
    await this.logins.link(issuer, identity.subject, account.id, now);
    return account;
  }

  /** Only where anyone may sign up: an invitation names a person, not a provider's user. */
  private async createAccount(email: string, now: number): Promise<AccountRow> {
    try {
      await this.signups.admit(email, undefined);
    } catch {
      throw new SsoFailure('signup_closed', 'Sign-up is not open');
    }
    const account: AccountRow = {
      id: newId(),
      email: email.trim(),
      emailKey: emailKeyOf(email),
      // Nobody knows this password, and has_password refuses it anyway; the hash keeps password sign-in's timing.
      passwordHash: await hashPassword(newSecret()),
      hasPassword: 0,
      emailVerified: 1,
      verifyEmailSentAt: null,
      resetEmailSentAt: null,
      createdAt: now,
      updatedAt: now,
      role: 'user',
      disabledAt: null,
      deletedAt: null,
      quotaBytes: null,
      lastActiveAt: now,
    };
    if (!(await this.accountRows.insert(account))) {
      // Signed up with the same address a moment ago: that account is not known to be the provider's user's.
      throw new SsoFailure('unverified_account', 'An account with this e-mail appeared meanwhile');
    }
    if (await this.signups.claimFirstAdmin(account.id)) account.role = 'admin';
    return account;
  }

  /** Discovered once; a failure is not kept, so a provider that was down is tried again next time. */
  private provider(): Promise<ProviderConfiguration> {
    this.discovered ??= this.discover().catch((err: unknown) => {
      this.discovered = null;
      throw new SsoFailure('provider_error', `The identity provider could not be reached: ${(err as Error).message}`);
    });
    return this.discovered;
  }

  private async discover(): Promise<ProviderConfiguration> {
    const insecure = new URL(this.config.issuer).protocol === 'http:';
    const oidc = await openidClient();
    const configuration = await oidc.discovery(
      new URL(this.config.issuer),
      this.config.clientId,
      undefined,
      oidc.ClientSecretBasic(this.config.clientSecret),
      { timeout: PROVIDER_TIMEOUT_S, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) },
    );
    return configuration;
  }
}
