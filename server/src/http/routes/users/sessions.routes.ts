import { sessionIdParams, type SessionDto } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { DeviceSession, DevicesService } from '../../../services/accounts/devices.service.js';
import { noContent, signedIn } from '../../api-schemas.js';
import { callerOf } from '../../caller.js';
import { clearSessionCookies } from '../../cookies.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';

export interface SessionRoutesDeps {
  devices: DevicesService;
  requireAuth: preHandlerAsyncHookHandler;
  secureCookies: boolean;
}

const MINUTE_MS = 60_000;
const isoDate = z.string().describe('ISO 8601');

const sessionDto = z.object({
  id: z.string(),
  browser: z.string().nullable(),
  system: z.string().nullable(),
  clientAddress: z.string().nullable(),
  signInMethod: z.enum(['password', 'passkey', 'oidc']).nullable(),
  createdAt: isoDate,
  lastUsedAt: isoDate,
  current: z.boolean(),
}) satisfies z.ZodType<SessionDto>;

function present(session: DeviceSession): SessionDto {
  return {
    id: session.id,
    browser: session.browser,
    system: session.system,
    clientAddress: session.clientAddress,
    signInMethod: session.signInMethod,
    createdAt: new Date(session.createdAt).toISOString(),
    // A session is used at each refresh of its access token: the minute is all that is known.
    lastUsedAt: new Date(Math.floor(session.lastUsedAt / MINUTE_MS) * MINUTE_MS).toISOString(),
    current: session.current,
  };
}

/** Settings → Devices: the account's sessions, each signed out alone. */
export function sessionRoutes(app: FastifyInstance, deps: SessionRoutesDeps): void {
  const { devices, secureCookies } = deps;
  const auth = { preHandler: deps.requireAuth };
  const tags = ['users'];

  app.get(
    '/user-service/sessions',
    {
      ...auth,
      schema: signedIn({
        summary: "The account's sessions in force",
        description: 'Browser and system from each one’s user agent; `current` marks the session of this request.',
        tags,
        response: { 200: z.array(sessionDto) },
      }),
    },
    async (request, reply): Promise<SessionDto[]> => {
      const { accountId, sessionId } = authOf(request);
      void reply.header('cache-control', 'no-store');
      return (await devices.list(accountId, sessionId)).map(present);
    },
  );

  app.delete(
    '/user-service/sessions/:id',
    {
      ...auth,
      schema: signedIn({
        summary: 'Sign out one session of the account',
        description: 'Its next request answers 401. Signing out the current session also clears its cookies, as logout does.',
        tags,
        params: sessionIdParams,
        response: { 204: noContent },
        errors: ['VALIDATION_FAILED', 'SESSION_NOT_FOUND'],
      }),
    },
    async (request, reply) => {
      const { accountId, sessionId } = authOf(request);
      const { id } = parseInput(sessionIdParams, request.params);
      await devices.signOut(accountId, id, callerOf(request));
      if (id === sessionId) clearSessionCookies(reply, secureCookies);
      return reply.status(204).send();
    },
  );
}
