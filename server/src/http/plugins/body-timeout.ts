import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route streams a body that may take hours (uploads): only the idle timeout applies. */
    streamsBody?: boolean;
  }
}

/**
 * A request body must arrive whole within `ms`, or the connection is closed: a client trickling a
 * few bytes at a time cannot hold a socket forever. Uploads are exempt; the server's idle timeout
 * still closes a connection that sends nothing at all.
 */
export function registerBodyTimeout(app: FastifyInstance, ms: number): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.raw;
    if (raw.complete || request.routeOptions.config.streamsBody) return done();
    const timer = setTimeout(() => {
      if (!raw.complete) {
        request.log.info('request body too slow; closing the connection');
        raw.socket.destroy();
      }
    }, ms);
    timer.unref();
    const stop = (): void => clearTimeout(timer);
    raw.once('end', stop);
    raw.once('close', stop);
    done();
  });
}
