import { SignJWT, jwtVerify } from 'jose';
import { createHmac } from 'node:crypto';
import type { SessionRepository } from '../db/repositories/session.repository.js';
import type { AccessClaims } from '../security/access-token.js';
import type { Clock } from './clock.js';

/** Long enough to watch a film and seek in it; the session it is bound to can end it sooner. */
export const STREAM_TOKEN_MS = 4 * 60 * 60_000;
const AUDIENCE = 'stream-video';

export interface IssuedStreamToken {
  token: string;
  expiresAt: number;
  maxAgeSeconds: number;
}

/**
 * Credentials for `<video>` elements, which cannot refresh an access token mid-stream: a signed
 * token (its own key, derived from SECRET_KEY, so it never passes as an access token) naming the
 * account and session. Every use checks that session, so logging out ends streaming too.
 */
export class StreamTokenService {
  private readonly key: Uint8Array;

  constructor(
    secretKey: string,
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
    private readonly ttlMs = STREAM_TOKEN_MS,
  ) {
    this.key = createHmac('sha256', secretKey).update('nimbus stream-video token').digest();
  }

  async issue(claims: AccessClaims): Promise<IssuedStreamToken> {
    const now = this.clock.now();
    const expiresAt = now + this.ttlMs;
    const token = await new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.accountId)
      .setAudience(AUDIENCE)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(expiresAt / 1000))
      .sign(this.key);
    return { token, expiresAt, maxAgeSeconds: Math.floor(this.ttlMs / 1000) };
  }

  /** The claims of a valid token whose session is still active, else null. */
  async verify(token: string | undefined): Promise<AccessClaims | null> {
    if (!token) return null;
    const now = this.clock.now();
    let claims: AccessClaims;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], audience: AUDIENCE, currentDate: new Date(now) });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      claims = { accountId: payload.sub, sessionId: payload.sid };
    } catch {
      return null;
    }
    return (await this.sessions.isActive(claims.sessionId, claims.accountId, now)) ? claims : null;
  }
}
