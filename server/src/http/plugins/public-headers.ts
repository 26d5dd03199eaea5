import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './error-handler.js';

/**
 * Where anyone holding a link is answered: the link's page, the public download page, and the API
 * both call. Every one of these addresses carries a link's secret.
 */
const PUBLIC_PREFIXES = [
  '/s/',
  '/public-download/',
  '/share-service/public/',
  '/file-service/public/',
  '/invite/',
  '/invitation-service/public/',
];

/**
 * Links can be revoked and their options changed, so nothing a visitor saw may be kept by a cache;
 * and a link's address is a secret, never to be indexed or sent on as a referrer.
 */
export const PUBLIC_HEADERS = {
  'cache-control': 'private, no-store',
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
} as const;

export function isPublicPath(url: string): boolean {
  return PUBLIC_PREFIXES.some((prefix) => url.startsWith(prefix));
}

/**
 * Gives every answer at a public address the public headers as it is sent, so they replace what a
 * route, a plugin or the error handler set, and reach answers refused before any route ran (a
 * missing browser id, an unknown address).
 */
export function registerPublicHeaders(app: FastifyInstance): void {
  // A plain hook, not an async one: it runs on every answer of the server.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isPublicPath(request.url)) void reply.headers(PUBLIC_HEADERS);
    done(null, payload);
  });
}

/**
 * Fastify answers an address it cannot route (a malformed escape, an overlong part) before any hook
 * runs: this answers it as any other bad request, with the public headers where they are due.
 */
export function answerUnroutable(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (isPublicPath(request.url)) void reply.headers(PUBLIC_HEADERS);
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void sendError(request, reply, 'VALIDATION_FAILED', tooLong ? 'A part of the address is too long' : 'Malformed address');
}
