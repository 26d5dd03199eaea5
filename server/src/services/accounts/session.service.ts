import { LIMITS } from '@nimbus/common';
import { createHmac } from 'node:crypto';
import type { ListedSessionRow, SessionRepository } from '../../db/repositories/session.repository.js';
import type { SessionTable } from '../../db/schema.js';
import { UnauthorizedError } from '../../domain/errors.js';
import type { AccessClaims, SessionTokenSigner } from '../../security/access-token.js';
import { hashToken, newId, newSecret } from '../../security/ids.js';
import type { Clock } from '../clock.js';

// Cookie values arrive URL-decoded, so anything (a NUL byte included) may reach a query unless checked.
const REFRESH_TOKEN = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{1,128})$/;

function parseRefreshToken(token: string | undefined): { sessionId: string; secret: string } | null {
  const match = token ? REFRESH_TOKEN.exec(token) : null;
  return match ? { sessionId: match[1]!, secret: match[2]! } : null;
}

/** How long after a rotation the token it replaced still refreshes (same browser only). */
export const REFRESH_GRACE_MS = 30_000;

/** A signed-in caller: the access token's claims and the account's drive version, read with the session check. */
export interface SignedIn extends AccessClaims {
  driveVersion: number;
}

/** Where a sign-in came from, kept with its session for Settings → Devices. */
export interface SessionOrigin {
  userAgent: string | null;
  clientAddress: string | null;
  signInMethod: NonNullable<SessionTable['signInMethod']>;
}

export type { ListedSessionRow } from '../../db/repositories/session.repository.js';

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  refreshExpiresAt: number;
}

/**
 * Sessions: a short-lived access token plus a refresh token bound to the browser id,
 * rotated on every use. A refresh token is `<sessionId>.<secret>`; only its hash is stored.
 */
export class SessionService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly signer: SessionTokenSigner,
    private readonly clock: Clock,
    /** Derives each refresh secret's successor (the server's secret key). */
    private readonly rotationKey: string,
    /** Told of each refresh, for the account's last-active time. */
    private readonly activity: { touchActive(accountId: string, now: number): Promise<void> } | null = null,
  ) {}

  async start(accountId: string, browserId: string, origin: SessionOrigin): Promise<IssuedTokens> {
    const now = this.clock.now();
    const id = newId();
    const secret = newSecret();
    const expiresAt = now + LIMITS.refreshTokenMs;
    await this.sessions.insert({
      id,
      accountId,
      browserId,
      refreshHash: hashToken(secret),
      previousRefreshHash: null,
      createdAt: now,
      lastUsedAt: now,
      expiresAt,
      revokedAt: null,
      userAgent: origin.userAgent,
      clientAddress: origin.clientAddress,
      signInMethod: origin.signInMethod,
    });
    return {
      accessToken: await this.signer.sign({ accountId, sessionId: id }, now),
      refreshToken: `${id}.${secret}`,
      refreshExpiresAt: expiresAt,
    };
  }

  /**
   * Swaps a refresh token for a new pair. The next secret derives from the presented one, so the
   * same token presented again within a short grace after its rotation, from the same browser (two
   * tabs refreshing at once, an answer lost on the way), gets the very same new pair. Presented
   * later, a rotated-away token means it was stolen and used twice: the session is revoked.
   */
  async refresh(refreshToken: string | undefined, browserId: string | undefined): Promise<IssuedTokens & AccessClaims> {
    const parsed = parseRefreshToken(refreshToken);
    if (!parsed || !browserId) throw new UnauthorizedError('INVALID_TOKEN', 'Invalid refresh token');
    const { sessionId, secret } = parsed;
    const now = this.clock.now();
    const session = await this.sessions.findById(sessionId);
    if (!session || session.revokedAt !== null || session.expiresAt <= now || session.browserId !== browserId) {
      throw new UnauthorizedError('INVALID_TOKEN', 'Invalid refresh token');
    }
    const presented = hashToken(secret);
    const nextSecret = this.successorOf(session.id, secret);
    const expiresAt = now + LIMITS.refreshTokenMs;
    const rotated =
      presented === session.refreshHash && (await this.sessions.rotate(session.id, presented, hashToken(nextSecret), now, expiresAt));
    let refreshExpiresAt = expiresAt;
    if (!rotated) {
      // Rotated by another request just now (or earlier): the successor must be what it made.
      const current = presented === session.refreshHash ? await this.sessions.findById(session.id) : session;
      refreshExpiresAt = current?.expiresAt ?? session.expiresAt;
      const graced =
        current !== undefined &&
        current.revokedAt === null &&
        current.previousRefreshHash === presented &&
        current.refreshHash === hashToken(nextSecret) &&
        now - current.lastUsedAt <= REFRESH_GRACE_MS;
      if (!graced) {
        if (presented === session.refreshHash || presented === session.previousRefreshHash) await this.sessions.revoke(session.id, now);
        throw new UnauthorizedError('INVALID_TOKEN', 'Invalid refresh token');
      }
    }
    const claims = { accountId: session.accountId, sessionId: session.id };
    await this.activity?.touchActive(session.accountId, now);
    return {
      ...claims,
      accessToken: await this.signer.sign(claims, now),
      refreshToken: `${session.id}.${nextSecret}`,
      refreshExpiresAt,
    };
  }

  /** The secret that replaces `secret` at rotation: unguessable without the server's key. */
  private successorOf(sessionId: string, secret: string): string {
    return createHmac('sha256', this.rotationKey).update(`${sessionId}.${secret}`).digest('base64url');
  }

  /**
   * The signed-in account behind an access token, checked against revocation on every call (one
   * indexed lookup), with its drive version from that same lookup.
   */
  async authenticate(accessToken: string | undefined): Promise<SignedIn> {
    const now = this.clock.now();
    const claims = accessToken ? await this.signer.verify(accessToken, now) : null;
    const driveVersion = claims ? await this.sessions.activeDriveVersion(claims.sessionId, claims.accountId, now) : null;
    if (!claims || driveVersion === null) throw new UnauthorizedError();
    return { accountId: claims.accountId, sessionId: claims.sessionId, driveVersion };
  }

  /** The session a refresh token names, when it is still in force (logout with an expired access token). */
  async sessionOfRefreshToken(refreshToken: string | undefined): Promise<string | null> {
    const parsed = parseRefreshToken(refreshToken);
    if (!parsed) return null;
    const session = await this.sessions.findById(parsed.sessionId);
    return session && session.refreshHash === hashToken(parsed.secret) ? session.id : null;
  }

  /**
   * Whether a refresh token is a session of the account still in force in this browser: the
   * request comes from a device that is signed in (its current token or the one just rotated away).
   */
  async isSignedInHere(accountId: string, refreshToken: string | undefined, browserId: string): Promise<boolean> {
    const parsed = parseRefreshToken(refreshToken);
    if (!parsed) return false;
    const session = await this.sessions.findById(parsed.sessionId);
    if (!session || session.accountId !== accountId || session.browserId !== browserId) return false;
    if (session.revokedAt !== null || session.expiresAt <= this.clock.now()) return false;
    const presented = hashToken(parsed.secret);
    return presented === session.refreshHash || presented === session.previousRefreshHash;
  }

  /** The account's sessions in force (Settings → Devices). */
  listActive(accountId: string): Promise<ListedSessionRow[]> {
    return this.sessions.listActive(accountId, this.clock.now());
  }

  /** Ends one session of the account at once (its next request answers 401); null when it has none such in force. */
  endOfAccount(accountId: string, sessionId: string): Promise<ListedSessionRow | null> {
    return this.sessions.revokeOfAccount(sessionId, accountId, this.clock.now());
  }

  end(sessionId: string): Promise<void> {
    return this.sessions.revoke(sessionId, this.clock.now());
  }

  endAll(accountId: string, exceptSessionId?: string): Promise<void> {
    return this.sessions.revokeAllOfAccount(accountId, this.clock.now(), exceptSessionId);
  }
}
