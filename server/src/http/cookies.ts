import type { FastifyReply } from 'fastify';
import type { IssuedTokens } from '../services/accounts/session.service.js';

export const ACCESS_COOKIE = 'access-token';
export const REFRESH_COOKIE = 'refresh-token';
/** The refresh token is only ever needed by the session calls. */
const REFRESH_PATH = '/user-service';

export function setSessionCookies(reply: FastifyReply, tokens: IssuedTokens, secure: boolean, accessTtlMs: number): void {
  const base = { httpOnly: true, sameSite: 'strict', secure } as const;
  void reply.setCookie(ACCESS_COOKIE, tokens.accessToken, { ...base, path: '/', maxAge: Math.floor(accessTtlMs / 1000) });
  void reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, { ...base, path: REFRESH_PATH, expires: new Date(tokens.refreshExpiresAt) });
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  const base = { httpOnly: true, sameSite: 'strict', secure } as const;
  void reply.clearCookie(ACCESS_COOKIE, { ...base, path: '/' });
  void reply.clearCookie(REFRESH_COOKIE, { ...base, path: REFRESH_PATH });
}
