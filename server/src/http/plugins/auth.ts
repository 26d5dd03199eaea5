import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { InvalidError, UnauthorizedError } from '../../domain/errors.js';
import type { AccessClaims } from '../../security/access-token.js';
import type { SessionService } from '../../services/accounts/session.service.js';
import { ACCESS_COOKIE } from '../cookies.js';

/**
 * The signed-in account of a request: its token's claims and, when the session check read it, the
 * account's drive version (what `sendCachedJson` keys answers on).
 */
export type RequestAuth = AccessClaims & { driveVersion?: number };

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
  interface FastifyContextConfig {
    /** WebDAV: authenticated by HTTP Basic with an app password, never by the session cookies. */
    davRoute?: boolean;
  }
}

export const BROWSER_ID = /^[A-Za-z0-9-]{1,100}$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The `uuid` header of the browser, validated; undefined when absent or malformed. */
export function browserIdOf(request: FastifyRequest): string | undefined {
  const value = request.headers.uuid;
  return typeof value === 'string' && BROWSER_ID.test(value) ? value : undefined;
}

/** The signed-in account of a request that passed `requireAuth`. */
export function authOf(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new UnauthorizedError();
  return request.auth;
}

export function registerAuth(app: FastifyInstance, sessions: SessionService): preHandlerAsyncHookHandler {
  app.decorateRequest('auth', null);

  // A custom header cannot be sent cross-site without CORS, so requiring it on every
  // state-changing call also shuts out cross-site request forgery.
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config.davRoute || browserIdOf(request)) return done();
    done(new InvalidError('Missing or invalid uuid header', undefined, 'MISSING_BROWSER_ID'));
  });

  return async function requireAuth(request) {
    request.auth = await sessions.authenticate(request.cookies[ACCESS_COOKIE]);
  };
}
