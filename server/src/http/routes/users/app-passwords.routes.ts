import { appPasswordBody, type AppPasswordDto, type CreatedAppPasswordDto } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { AppPasswordRow, AppPasswordService } from '../../../services/accounts/app-password.service.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { appPasswordDto, createdAppPasswordDto, noContent, signedIn } from '../../api-schemas.js';

export interface AppPasswordRoutesDeps {
  appPasswords: AppPasswordService;
  requireAuth: preHandlerAsyncHookHandler;
}

const idParams = z.object({ id: z.string().min(1).max(64) });
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function present(row: AppPasswordRow): AppPasswordDto {
  return { id: row.id, name: row.name, createdAt: new Date(row.createdAt).toISOString(), lastUsedAt: iso(row.lastUsedAt) };
}

export function appPasswordRoutes(app: FastifyInstance, deps: AppPasswordRoutesDeps): void {
  const { appPasswords } = deps;
  const auth = { preHandler: deps.requireAuth };

  const tags = ['users'];
  app.post(
    '/user-service/app-passwords',
    {
      ...auth,
      schema: signedIn({
        summary: 'Make an app password (for WebDAV)',
        description: 'The answer holds the secret, shown this once.',
        tags,
        body: appPasswordBody,
        response: { 201: createdAppPasswordDto },
        errors: ['VALIDATION_FAILED', 'CONFLICT'],
      }),
    },
    async (request, reply): Promise<CreatedAppPasswordDto> => {
      const { name } = parseInput(appPasswordBody, request.body);
      const { row, password } = await appPasswords.create(authOf(request).accountId, name);
      // The secret is in this answer only: nothing may keep a copy of it.
      void reply.status(201).header('cache-control', 'no-store');
      return { id: row.id, name: row.name, password, createdAt: new Date(row.createdAt).toISOString() };
    },
  );

  app.get(
    '/user-service/app-passwords',
    {
      ...auth,
      schema: signedIn({ summary: "The account's app passwords, without their secrets", tags, response: { 200: z.array(appPasswordDto) } }),
    },
    async (request): Promise<AppPasswordDto[]> => {
      return (await appPasswords.list(authOf(request).accountId)).map(present);
    },
  );

  app.delete(
    '/user-service/app-passwords/:id',
    {
      ...auth,
      schema: signedIn({
        summary: 'Revoke an app password',
        tags,
        params: idParams,
        response: { 204: noContent },
        errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
      }),
    },
    async (request, reply) => {
      await appPasswords.revoke(authOf(request).accountId, parseInput(idParams, request.params).id);
      return reply.status(204).send();
    },
  );
}
