import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Metrics, TransferMeter } from '../../observability/metrics.js';
import { sendError } from './error-handler.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts streamed file bytes; absent on an instance built without metrics. */
    transfers?: TransferMeter;
  }
}

/** Digests first, so the comparison takes the same time whatever the lengths. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function bearerOf(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match ? match[1]! : null;
}

/**
 * `GET /metrics` for Prometheus behind a bearer token, and the per-request timing. Without a token
 * the route answers 404 like any unknown one and no request is timed: nothing costs anything.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | null): void {
  app.decorate('transfers', metrics);

  if (token) {
    app.addHook('onResponse', (request, reply, done) => {
      metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }

  const schema = {
    summary: 'Prometheus metrics',
    description: 'Needs `Authorization: Bearer <METRICS_TOKEN>`; answers 404 while no token is configured.',
    tags: ['health'],
    security: [{ bearer: [] }],
    response: { 200: { description: 'The Prometheus text exposition', content: { 'text/plain': { schema: z.string() } } } },
    errors: ['ROUTE_NOT_FOUND', 'UNAUTHENTICATED'],
  } as const;
  app.get('/metrics', { schema }, async (request, reply) => {
    if (!token) return sendError(request, reply, 'ROUTE_NOT_FOUND', `Route ${request.method} /metrics not found`);
    const presented = bearerOf(request);
    if (presented === null || !sameSecret(presented, token)) {
      void reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendError(request, reply, 'UNAUTHENTICATED', 'A valid metrics token is required');
    }
    const { contentType, body } = await metrics.exposition();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
}
