import {
  createItemShareBody,
  itemShareParams,
  itemShareQuery,
  updateItemShareBody,
  type ItemShareDto,
  type SharedWithMeDto,
} from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { ItemShareService } from '../../../services/sharing/item-share.service.js';
import { callerOf } from '../../caller.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { noContent, signedIn } from '../../api-schemas.js';
import { presentItemShare, presentReceivedShare } from './item-shares.presenter.js';
import { itemShareDto, sharedWithMeDto } from './item-shares.schemas.js';

export interface ItemShareRoutesDeps {
  itemShares: ItemShareService;
  requireAuth: preHandlerAsyncHookHandler;
}

/** Sharing files and folders with other accounts of the server (owner side), and "Shared with me". */
export function itemShareRoutes(app: FastifyInstance, deps: ItemShareRoutesDeps): void {
  const { itemShares } = deps;
  const auth = { preHandler: deps.requireAuth };
  const tags = ['item shares'];
  const itemNotFound = ['VALIDATION_FAILED', 'FILE_NOT_FOUND', 'FOLDER_NOT_FOUND'] as const;

  app.get(
    '/item-share-service/shares',
    {
      ...auth,
      schema: signedIn({
        summary: "The accounts one of one's files or folders is shared with",
        tags,
        querystring: itemShareQuery,
        response: { 200: z.array(itemShareDto) },
        errors: itemNotFound,
      }),
    },
    async (request): Promise<ItemShareDto[]> => {
      const q = parseInput(itemShareQuery, request.query);
      return (await itemShares.list(authOf(request).accountId, q.itemType, q.itemId)).map((share) => presentItemShare(share));
    },
  );

  app.post(
    '/item-share-service/shares',
    {
      ...auth,
      schema: signedIn({
        summary: 'Share a file or folder with another account, or change its role when already shared',
        description: 'Answers 201 for a new share, 200 when the account already had one (its role is then updated).',
        tags,
        body: createItemShareBody,
        response: { 200: itemShareDto, 201: itemShareDto },
        errors: [...itemNotFound, 'RECIPIENT_NOT_FOUND', 'SHARE_WITH_SELF', 'TOO_MANY_SHARES'],
      }),
    },
    async (request, reply): Promise<ItemShareDto> => {
      const body = parseInput(createItemShareBody, request.body);
      const { share, created } = await itemShares.create(authOf(request).accountId, body, callerOf(request));
      void reply.status(created ? 201 : 200);
      return presentItemShare(share);
    },
  );

  app.patch(
    '/item-share-service/shares/:id',
    {
      ...auth,
      schema: signedIn({
        summary: "Change a share's role",
        tags,
        params: itemShareParams,
        body: updateItemShareBody,
        response: { 200: itemShareDto },
        errors: ['VALIDATION_FAILED', 'SHARE_NOT_FOUND'],
      }),
    },
    async (request): Promise<ItemShareDto> => {
      const { id } = parseInput(itemShareParams, request.params);
      const { role } = parseInput(updateItemShareBody, request.body);
      return presentItemShare(await itemShares.changeRole(authOf(request).accountId, id, role, callerOf(request)));
    },
  );

  app.delete(
    '/item-share-service/shares/:id',
    {
      ...auth,
      schema: signedIn({
        summary: 'Stop sharing: the account loses access at once',
        tags,
        params: itemShareParams,
        response: { 204: noContent },
        errors: ['VALIDATION_FAILED', 'SHARE_NOT_FOUND'],
      }),
    },
    async (request, reply) => {
      await itemShares.remove(authOf(request).accountId, parseInput(itemShareParams, request.params).id, callerOf(request));
      return reply.status(204).send();
    },
  );

  app.get(
    '/item-share-service/shared-with-me',
    {
      ...auth,
      schema: signedIn({
        summary: 'Files and folders other accounts shared with the caller, newest first',
        tags,
        response: { 200: z.array(sharedWithMeDto) },
      }),
    },
    async (request): Promise<SharedWithMeDto[]> => {
      return (await itemShares.received(authOf(request).accountId)).map((received) => presentReceivedShare(received));
    },
  );

  app.delete(
    '/item-share-service/shared-with-me/:id',
    {
      ...auth,
      schema: signedIn({
        summary: 'Leave a share: the item no longer shows under "Shared with me"',
        tags,
        params: itemShareParams,
        response: { 204: noContent },
        errors: ['VALIDATION_FAILED', 'SHARE_NOT_FOUND'],
      }),
    },
    async (request, reply) => {
      await itemShares.leave(authOf(request).accountId, parseInput(itemShareParams, request.params).id);
      return reply.status(204).send();
    },
  );
}
