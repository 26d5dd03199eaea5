import type { FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route streams a body that may take hours (uploads): only the idle timeout applies. */
    streamsBody?: boolean;
  }
}

const timers = new WeakMap<object, NodeJS.Timeout>();

/** Without a length or a chunked encoding a request has no body (RFC 9112 §6.3): nothing to wait for. */
function mayHaveBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A request body must arrive whole within `ms`, or the connection is closed: a client trickling a
 * few bytes at a time cannot hold a socket forever. Uploads are exempt; the server's idle timeout
 * still closes a connection that sends nothing at all.
 */
export function registerBodyTimeout(app: FastifyInstance, ms: number): void {
  const stop = (raw: object): void => {
    clearTimeout(timers.get(raw));
    timers.delete(raw);
  };
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    if (raw.complete || !mayHaveBody(raw.headers) || request.routeOptions.config.streamsBody) return done();
    const timer = setTimeout(() => {
      timers.delete(raw);
      if (raw.complete || raw.destroyed) return;
      request.log.info('request body too slow; closing the connection');
      raw.destroy();
    }, ms);
    timer.unref();
    timers.set(raw, timer);
    raw.once('end', () => stop(raw));
    raw.once('close', () => stop(raw));
    // The answer went out (or the route never read the body): nothing left to wait for. A listener
    // on this response only, not an onResponse hook that every request of the server would run.
    reply.raw.once('finish', () => stop(raw));
    done();
  });
}
