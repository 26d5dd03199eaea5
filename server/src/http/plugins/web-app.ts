import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { sendError } from './error-handler.js';

const API_PREFIXES = ['/user-service/', '/file-service/', '/folder-service/', '/share-service/', '/api/', '/assets/', '/health'];

function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return API_PREFIXES.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix));
}

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached,
 * and every non-API page route answered with index.html so the client router takes over.
 */
export async function registerWebApp(app: FastifyInstance, webRoot: string | null): Promise<void> {
  if (webRoot) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      cacheControl: false,
      setHeaders(res, filePath) {
        const immutable = /[/\\]assets[/\\]/.test(filePath);
        void res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url);
    if (webRoot && isPage) {
      // A link's page gets the public headers instead, as every public answer does.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(request, reply, 'ROUTE_NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`);
  });
}
