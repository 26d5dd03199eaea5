import { SignJWT, jwtVerify } from 'jose';

export interface AccessClaims {
  accountId: string;
  sessionId: string;
}

/** Short-lived signed token naming the account and its session (HS256 with SECRET_KEY). */
export class AccessTokenSigner {
  private readonly key: Uint8Array;

  constructor(
    secretKey: string,
    private readonly ttlMs: number,
  ) {
    this.key = new TextEncoder().encode(secretKey);
  }

  sign(claims: AccessClaims, now: number): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.accountId)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor((now + this.ttlMs) / 1000))
      .sign(this.key);
  }

  /** The claims, or null for a bad, forged or expired token. */
  async verify(token: string, now: number): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: new Date(now) });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      return { accountId: payload.sub, sessionId: payload.sid };
    } catch {
      return null;
    }
  }
}
