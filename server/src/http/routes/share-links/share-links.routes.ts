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

  app.get('/share-service/links', auth, async (request): Promise<{ links: ShareLinkDto[] }> => {
    const { itemId } = parseInput(shareLinksQuery, request.query);
    const now = clock.now();
    return { links: (await links.list(authOf(request).accountId, itemId)).map((l) => presentLink(l, now)) };
  });

  app.post('/share-service/links', auth, async (request, reply): Promise<ShareLinkDto> => {
    const created = await links.create(authOf(request).accountId, parseInput(createShareLinkBody, request.body));
    void reply.status(201);
    return presentLink(created, clock.now());
  });

  app.patch('/share-service/links/:id', auth, async (request): Promise<ShareLinkDto> => {
    const { id } = parseInput(idParams, request.params);
    return presentLink(await links.update(authOf(request).accountId, id, parseInput(updateShareLinkBody, request.body)), clock.now());
  });

  app.delete('/share-service/links/:id', auth, async (request, reply) => {
    await links.revoke(authOf(request).accountId, parseInput(idParams, request.params).id);
    return reply.status(204).send();
  });

  /** The public and one-time links of files (made with the share popup), beside the links above. */
  app.get('/share-service/file-links', auth, async (request): Promise<FileDto[]> => {
    return (await links.fileLinks(authOf(request).accountId)).map(presentFile);
  });

  app.get('/share-service/drops/:id', auth, async (request): Promise<DropOriginDto> => {
    return presentDropOrigin(await links.dropOrigin(authOf(request).accountId, parseInput(idParams, request.params).id));
  });
}
