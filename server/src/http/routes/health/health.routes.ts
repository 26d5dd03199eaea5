import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

export function healthRoutes(app: FastifyInstance): void {
  const schema = { summary: 'Liveness: the process answers', tags: ['health'], response: { 200: z.object({ status: z.literal('ok') }) } };
  app.get('/health', { schema }, async () => ({ status: 'ok' }));
}
