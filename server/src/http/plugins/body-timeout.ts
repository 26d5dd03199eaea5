import type { FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route streams a body that may take hours (uploads): only the idle timeout applies. */
    streamsBody?: boolean;
  }
}

const timers = new WeakMap<object, NodeJS.Timeout>();

/** How long a connection closed after an early answer still takes (and drops) the body's bytes. */
const LINGER_MS = 2000;

/**
 * Node closes the socket of a `Connection: close` answer by destroying it once the answer is out.
 * With body bytes still coming that is a reset, and a client still sending (a large PUT before
 * its retry with credentials) can lose the answer to it. This socket is ended instead: the client
 * reads the answer and the end, while what it still sends is dropped for a moment at most.
 */
function closeGently(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

/** Without a length or a chunked encoding a request has no body (RFC 9112 §6.3): nothing to wait for. */
function mayHaveBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A request body must arrive whole within `ms`, or the connection is closed: a client trickling a
 * few bytes at a time cannot hold a socket forever. Uploads are exempt; the server's idle timeout
 * still closes a connection that sends nothing at all.
 *
 * An answer sent before the body has all arrived (a refused upload, a wrong password, an unknown
 * link) closes the connection once it is out: the rest of the body is never drained, however
 * slowly it comes, and the client learns from `Connection: close` to send its next request (its
 * retry with credentials) on a new connection.
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
  // Node closes the connection once an answer marked `Connection: close` is out, instead of
  // reading the rest of the body to keep it.
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (raw.complete || !mayHaveBody(raw.headers)) return done(null, payload);
    // An answer given while the request's head was being parsed: a small body usually came in the
    // same packet, and is parsed by the next turn of the event loop.
    setImmediate(() => {
      if (!raw.complete) {
        void reply.header('connection', 'close');
        closeGently(raw.socket);
        // A route that stopped reading half-way left the body paused: let the rest flow away.
        raw.resume();
      }
      done(null, payload);
    });
  });
}
