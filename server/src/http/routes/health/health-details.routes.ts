import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { HealthDetailsService } from '../../../services/health/health-details.service.js';
import { sendError } from '../../plugins/error-handler.js';
import { z } from 'zod';

/** Digests first, so the comparison takes the same time whatever the lengths. */
function isSameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function bearerOf(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match ? match[1]! : null;
}

/**
 * `GET /health/details` for an operator's monitoring. Nimbus has no admin role, so a bearer token
 * from HEALTH_TOKEN is the only key; without one configured the route answers 404 like any unknown one.
 */
export function healthDetailsRoutes(app: FastifyInstance, deps: { details: HealthDetailsService; token: string | null }): void {
  const model = z
    .object({
      model: z.string().nullable(),
      state: z.enum(['off', 'missing', 'downloading', 'ready', 'failed']),
      bytesDone: z.number(),
      bytesTotal: z.number(),
      error: z.string().nullable(),
      dir: z.string().nullable(),
    })
    .describe("AI search's image–text model: while it is not ready, search runs on the bundled pipeline");
  const details = z.looseObject({ status: z.enum(['ok', 'problems', 'unavailable']), model });
  const schema = {
    summary: 'Health of the database, storage and integrity checks',
    description: 'Needs `Authorization: Bearer <HEALTH_TOKEN>`; answers 404 while no token is configured.',
    tags: ['health'],
    security: [{ bearer: [] }],
    response: { 200: details, 503: details.describe('The database or the storage cannot be reached') },
    errors: ['ROUTE_NOT_FOUND', 'UNAUTHENTICATED'],
  } as const;
  app.get('/health/details', { schema }, async (request, reply) => {
    if (!deps.token) return sendError(request, reply, 'ROUTE_NOT_FOUND', `Route ${request.method} /health/details not found`);
    const presented = bearerOf(request);
    if (presented === null || !isSameSecret(presented, deps.token)) {
      void reply.header('www-authenticate', 'Bearer realm="health"');
      return sendError(request, reply, 'UNAUTHENTICATED', 'A valid health token is required');
    }
    const details = await deps.details.details();
    return reply
      .code(details.status === 'unavailable' ? 503 : 200)
      .header('cache-control', 'no-store')
      .send(details);
  });
}
