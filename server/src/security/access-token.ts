import { SignJWT, jwtVerify } from 'jose';

export interface AccessClaims {
  accountId: string;
  sessionId: string;
}

/**
 * Short-lived signed tokens (HS256) naming an account and its session: the access token, and with
 * a key and audience of their own, the video stream token. One signer, so both check the same way.
 */
export class SessionTokenSigner {
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
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: new Date(now),
        ...(this.audience ? { audience: this.audience } : {}),
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      if (!this.audience && payload.aud !== undefined) return null;
      return { accountId: payload.sub, sessionId: payload.sid };
    } catch {
      return null;
    }
  }
}
