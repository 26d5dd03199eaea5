import type { FastifyInstance } from 'fastify';

export interface ErrorAnswer {
  method: string;
  /** The route's pattern, e.g. `/file-service/info/:id`. */
  route: string;
  status: number;
  code: string;
}

/**
 * Records every error answer a routed request gets, by route pattern. Call before the app is
 * ready (the first `inject`), so the hook reaches every route.
 */
export function recordErrorAnswers(app: FastifyInstance): ErrorAnswer[] {
  const seen: ErrorAnswer[] = [];
  app.addHook('onSend', (request, reply, payload, done) => {
    const route = request.routeOptions.url;
    if (reply.statusCode >= 400 && route !== undefined && typeof payload === 'string') {
      try {
        const { code } = JSON.parse(payload) as { code?: unknown };
        if (typeof code === 'string') seen.push({ method: request.method, route, status: reply.statusCode, code });
      } catch {
        // Not a JSON error body (WebDAV answers XML): nothing to check against the codes.
      }
    }
    done(null, payload);
  });
  return seen;
}
