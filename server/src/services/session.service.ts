import { LIMITS } from '@nimbus/common';
import type { SessionRepository } from '../db/repositories/session.repository.js';
import { UnauthorizedError } from '../domain/errors.js';
import type { AccessClaims, AccessTokenSigner } from '../security/access-token.js';
import { hashToken, newId, newSecret } from '../security/ids.js';
import type { Clock } from './clock.js';

// Cookie values arrive URL-decoded, so anything (a NUL byte included) may reach a query unless checked.
const REFRESH_TOKEN = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{1,128})$/;

function parseRefreshToken(token: string | undefined): { sessionId: string; secret: string } | null {
  const match = token ? REFRESH_TOKEN.exec(token) : null;
  return match ? { sessionId: match[1]!, secret: match[2]! } : null;
}

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
    private readonly signer: AccessTokenSigner,
    private readonly clock: Clock,
  ) {}

  async start(accountId: string, browserId: string): Promise<IssuedTokens> {
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
    });
    return {
      accessToken: await this.signer.sign({ accountId, sessionId: id }, now),
      refreshToken: `${id}.${secret}`,
      refreshExpiresAt: expiresAt,
    };
  }

  /** Swaps a refresh token for a new pair. A token that was already rotated away revokes the session. */
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
    if (presented !== session.refreshHash) {
      if (presented === session.previousRefreshHash) await this.sessions.revoke(session.id, now);
      throw new UnauthorizedError('INVALID_TOKEN', 'Invalid refresh token');
    }
    const nextSecret = newSecret();
    const expiresAt = now + LIMITS.refreshTokenMs;
    if (!(await this.sessions.rotate(session.id, presented, hashToken(nextSecret), now, expiresAt))) {
      // Another request rotated this same token first: the token has been used twice.
      await this.sessions.revoke(session.id, now);
      throw new UnauthorizedError('INVALID_TOKEN', 'Invalid refresh token');
    }
    const claims = { accountId: session.accountId, sessionId: session.id };
    return {
      ...claims,
      accessToken: await this.signer.sign(claims, now),
      refreshToken: `${session.id}.${nextSecret}`,
      refreshExpiresAt: expiresAt,
    };
  }

  /** The signed-in account behind an access token, checked against revocation. */
  async authenticate(accessToken: string | undefined): Promise<AccessClaims> {
    const now = this.clock.now();
    const claims = accessToken ? await this.signer.verify(accessToken, now) : null;
    if (!claims || !(await this.sessions.isActive(claims.sessionId, claims.accountId, now))) {
      throw new UnauthorizedError();
    }
    return claims;
  }

  /** The session a refresh token names, when it is still in force (logout with an expired access token). */
  async sessionOfRefreshToken(refreshToken: string | undefined): Promise<string | null> {
    const parsed = parseRefreshToken(refreshToken);
    if (!parsed) return null;
    const session = await this.sessions.findById(parsed.sessionId);
    return session && session.refreshHash === hashToken(parsed.secret) ? session.id : null;
  }

  end(sessionId: string): Promise<void> {
    return this.sessions.revoke(sessionId, this.clock.now());
  }

  endAll(accountId: string, exceptSessionId?: string): Promise<void> {
    return this.sessions.revokeAllOfAccount(accountId, this.clock.now(), exceptSessionId);
  }
}
