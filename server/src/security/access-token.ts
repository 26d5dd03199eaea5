import { SignJWT, jwtVerify } from 'jose';

export interface AccessClaims {
  accountId: string;
  sessionId: string;
}

/**
 * Short-lived signed tokens (HS256) naming an account and its session: the access token, and with
 * a key and audience of their own, the video stream token. One signer, so both check the same way.
 */
/** Verified tokens remembered at most; past this the memory starts over (a burst of new sessions). */
const MAX_REMEMBERED = 10_000;

export class SessionTokenSigner {
  /**
   * Tokens whose signature was already checked, with their claims and expiry: a browser sends the
   * same token with every request for its lifetime, and checking the HMAC each time (an async
   * WebCrypto call per request) was the largest cost of an authenticated call. Only the exact
   * token string hits; expiry is checked on every use; revocation is the session check's job.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();

  constructor(
    private readonly key: Uint8Array,
    readonly ttlMs: number,
    private readonly audience?: string,
  ) {}

  static fromSecret(secretKey: string, ttlMs: number): SessionTokenSigner {
    return new SessionTokenSigner(new TextEncoder().encode(secretKey), ttlMs);
  }

  sign(claims: AccessClaims, now: number): Promise<string> {
    const token = new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.accountId)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor((now + this.ttlMs) / 1000));
    return (this.audience ? token.setAudience(this.audience) : token).sign(this.key);
  }

  /** The claims, or null for a bad, forged or expired token (or one meant for another audience). */
  async verify(token: string, now: number): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    if (known) return known.expiresAt > now ? known.claims : null;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(now),
        ...(this.audience ? { audience: this.audience } : {}),
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      if (!this.audience && payload.aud !== undefined) return null;
      const claims = { accountId: payload.sub, sessionId: payload.sid };
      if (typeof payload.exp === 'number') {
        if (this.verified.size >= MAX_REMEMBERED) this.verified.clear();
        this.verified.set(token, { claims, expiresAt: payload.exp * 1000 });
      }
      return claims;
    } catch {
      return null;
    }
  }
}
