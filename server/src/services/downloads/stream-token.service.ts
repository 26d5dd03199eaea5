import { createHmac } from 'node:crypto';
import type { SessionRepository } from '../../db/repositories/session.repository.js';
import { SessionTokenSigner, type AccessClaims } from '../../security/access-token.js';
import type { Clock } from '../clock.js';

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
  private readonly signer: SessionTokenSigner;

  constructor(
    secretKey: string,
    private readonly sessions: SessionRepository,
    private readonly clock: Clock,
    private readonly ttlMs = STREAM_TOKEN_MS,
  ) {
    const key = createHmac('sha256', secretKey).update('nimbus stream-video token').digest();
    this.signer = new SessionTokenSigner(key, ttlMs, AUDIENCE);
  }

  async issue(claims: AccessClaims): Promise<IssuedStreamToken> {
    const now = this.clock.now();
    const token = await this.signer.sign(claims, now);
    return { token, expiresAt: now + this.ttlMs, maxAgeSeconds: Math.floor(this.ttlMs / 1000) };
  }

  /** The claims of a valid token whose session is still active, else null. */
  async verify(token: string | undefined): Promise<AccessClaims | null> {
    if (!token) return null;
    const now = this.clock.now();
    const claims = await this.signer.verify(token, now);
    if (!claims) return null;
    return (await this.sessions.isActive(claims.sessionId, claims.accountId, now)) ? claims : null;
  }
}
