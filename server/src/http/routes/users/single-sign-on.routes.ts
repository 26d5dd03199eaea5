import { LIMITS, type SignInOptionsDto, signInOptionsDto, type SsoError } from '@nimbus/common';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SsoFailure, type SingleSignOnService } from '../../../services/accounts/single-sign-on.service.js';
import { setSessionCookies } from '../../cookies.js';
import { callerOf } from '../../caller.js';
import { BROWSER_ID } from '../../plugins/auth.js';

export interface SingleSignOnRoutesDeps {
  /** Null when no provider is configured: the login screen offers none and the flow's routes do not exist. */
  sso: SingleSignOnService | null;
  appUrl: string;
  secureCookies: boolean;
}

export const SSO_START_PATH = '/auth/oidc/start';
export const SSO_CALLBACK_PATH = '/auth/oidc/callback';
/** Holds the state between the redirect and the return, in the browser that started (login CSRF). */
const STATE_COOKIE = 'oidc-state';
const STATE_COOKIE_PATH = '/auth/oidc';
/** As long as the server keeps the sign-in (SingleSignOnService). */
const STATE_COOKIE_SECONDS = 10 * 60;

const redirect = z.undefined().describe('Redirect (Location header)');

export function singleSignOnRoutes(app: FastifyInstance, deps: SingleSignOnRoutesDeps): void {
  const { sso, appUrl, secureCookies } = deps;
  const tags = ['users'];

  app.get(
    '/user-service/sign-in-options',
    {
      schema: {
        summary: 'What the login screen offers besides the password',
        description: 'No account needed. `sso` is the single sign-on button, or null when no identity provider is configured.',
        tags,
        response: { 200: signInOptionsDto },
      },
    },
    async (): Promise<SignInOptionsDto> => ({ sso: sso ? { label: sso.label, url: SSO_START_PATH } : null }),
  );
  if (!sso) return;

  // The provider returns with a top-level navigation from its own site: a strict cookie would not come along.
  const stateCookie = { httpOnly: true, sameSite: 'lax', secure: secureCookies, path: STATE_COOKIE_PATH } as const;
  const failed = (code: SsoError) => `/?sso_error=${code}`;

  app.get(
    SSO_START_PATH,
    {
      schema: {
        summary: 'Start single sign-on',
        description:
          'Redirects to the identity provider. `uuid` is the browser id the web app sends as a header elsewhere (a navigation carries no header); ' +
          'the session is bound to it. A failure redirects to `/?sso_error=<code>`.',
        tags,
        querystring: z.object({ uuid: z.string().optional() }),
        response: { 302: redirect },
      },
    },
    async (request, reply) => {
      const uuid = (request.query as { uuid?: unknown }).uuid;
      if (typeof uuid !== 'string' || !BROWSER_ID.test(uuid)) return reply.redirect(failed('invalid_state'));
      try {
        const { redirectTo, state } = await sso.start(uuid);
        void reply.setCookie(STATE_COOKIE, state, { ...stateCookie, maxAge: STATE_COOKIE_SECONDS });
        return await reply.redirect(redirectTo);
      } catch (err) {
        return reply.redirect(failed(failureCode(err, request)));
      }
    },
  );

  app.get(
    SSO_CALLBACK_PATH,
    {
      schema: {
        summary: 'Return from the identity provider',
        description:
          'Checks the state against the browser’s, trades the code (PKCE) and checks the nonce, then signs in the account linked to the ' +
          'provider’s user or the one with its verified e-mail, or makes one when sign-up is open. Sets the session cookies and redirects to ' +
          '`/home`; a failure redirects to `/?sso_error=<code>`.',
        tags,
        response: { 302: redirect },
      },
    },
    async (request, reply) => {
      void reply.clearCookie(STATE_COOKIE, stateCookie);
      try {
        const currentUrl = new URL(request.url, `${appUrl}/`);
        const { tokens } = await sso.finish(currentUrl, request.cookies[STATE_COOKIE], callerOf(request));
        setSessionCookies(reply, tokens, secureCookies, LIMITS.accessTokenMs);
        return await reply.redirect('/home');
      } catch (err) {
        return reply.redirect(failed(failureCode(err, request)));
      }
    },
  );
}

function failureCode(
  err: unknown,
  request: { log: { info: (o: object, m: string) => void; error: (o: object, m: string) => void } },
): SsoError {
  if (err instanceof SsoFailure) {
    request.log.info({ code: err.code, reason: err.message }, 'single sign-on refused');
    return err.code;
  }
  request.log.error({ err }, 'single sign-on failed');
  return 'provider_error';
}
