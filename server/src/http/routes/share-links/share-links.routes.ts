import {
  createShareLinkBody,
  shareLinksQuery,
  updateShareLinkBody,
  type DropOriginDto,
  type FileDto,
  type ShareLinkDto,
} from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../../services/clock.js';
import type { ShareLinkService } from '../../../services/sharing/share-link.service.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { fileDto, noContent, shareLinkDto, signedIn } from '../../api-schemas.js';
import { presentFile } from '../files/files.presenter.js';
import { presentDropOrigin, presentLink } from './share-links.presenter.js';

export interface ShareLinkRoutesDeps {
  links: ShareLinkService;
  clock: Clock;
  requireAuth: preHandlerAsyncHookHandler;
}

const idParams = z.object({ id: z.string().min(1).max(64) });

/** The owner's links: list, create, change, revoke; and where a dropped file came from. */
export function shareLinkRoutes(app: FastifyInstance, deps: ShareLinkRoutesDeps): void {
  const { links, clock } = deps;
  const auth = { preHandler: deps.requireAuth };

  const tags = ['sharing'];
  app.get(
    '/share-service/links',
    {
      ...auth,
      schema: signedIn({
        summary: "The account's share links, or one item's",
        tags,
        querystring: shareLinksQuery,
        response: { 200: z.object({ links: z.array(shareLinkDto) }) },
        errors: ['VALIDATION_FAILED'],
      }),
    },
    async (request): Promise<{ links: ShareLinkDto[] }> => {
      const { itemId } = parseInput(shareLinksQuery, request.query);
      const now = clock.now();
      return { links: (await links.list(authOf(request).accountId, itemId)).map((l) => presentLink(l, now)) };
    },
  );

  app.post(
    '/share-service/links',
    {
      ...auth,
      schema: signedIn({
        summary: 'Make a share link for a file or folder (view) or a folder (drop)',
        tags,
        body: createShareLinkBody,
        response: { 201: shareLinkDto },
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND', 'FOLDER_NOT_FOUND', 'CONFLICT'],
      }),
    },
    async (request, reply): Promise<ShareLinkDto> => {
      const created = await links.create(authOf(request).accountId, parseInput(createShareLinkBody, request.body));
      void reply.status(201);
      return presentLink(created, clock.now());
    },
  );

  app.patch(
    '/share-service/links/:id',
    {
      ...auth,
      schema: signedIn({
        summary: "Change a link's options",
        tags,
        params: idParams,
        body: updateShareLinkBody,
        response: { 200: shareLinkDto },
        errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
      }),
    },
    async (request): Promise<ShareLinkDto> => {
      const { id } = parseInput(idParams, request.params);
      return presentLink(await links.update(authOf(request).accountId, id, parseInput(updateShareLinkBody, request.body)), clock.now());
    },
  );

  app.delete(
    '/share-service/links/:id',
    {
      ...auth,
      schema: signedIn({
        summary: 'Revoke a link',
        tags,
        params: idParams,
        response: { 204: noContent },
        errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
      }),
    },
    async (request, reply) => {
      await links.revoke(authOf(request).accountId, parseInput(idParams, request.params).id);
      return reply.status(204).send();
    },
  );

  /** The public and one-time links of files (made with the share popup), beside the links above. */
  app.get(
    '/share-service/file-links',
    { ...auth, schema: signedIn({ summary: 'Files that have a public or one-time link', tags, response: { 200: z.array(fileDto) } }) },
    async (request): Promise<FileDto[]> => {
      return (await links.fileLinks(authOf(request).accountId)).map(presentFile);
    },
  );

  app.get(
    '/share-service/drops/:id',
    {
      ...auth,
      schema: signedIn({
        summary: 'Who sent a file through a drop link',
        tags,
        params: idParams,
        response: { 200: z.object({ linkId: z.string(), uploaderName: z.string().nullable(), uploadedAt: z.string() }) },
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND'],
      }),
    },
    async (request): Promise<DropOriginDto> => {
      return presentDropOrigin(await links.dropOrigin(authOf(request).accountId, parseInput(idParams, request.params).id));
    },
  );
}
