import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { MediaService, StoredAsset } from '../../../services/media.service.js';
import { authOf } from '../../plugins/auth.js';
import { sendStoredFile } from '../../send-stored-file.js';
import { parseInput } from '../../validation.js';

export interface MediaRoutesDeps {
  media: MediaService;
  requireAuth: preHandlerAsyncHookHandler;
}

const idParams = z.object({ id: z.string().min(1).max(64) });
const thumbnailParams = z.object({ thumbnailID: z.string().min(1).max(64) });

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: StoredAsset, cacheControl?: string): Promise<FastifyReply> {
  return sendStoredFile(request, reply, asset, (range) => asset.open(range), { disposition: 'inline', cacheControl });
}

export function mediaRoutes(app: FastifyInstance, deps: MediaRoutesDeps): void {
  const { media, requireAuth } = deps;
  const auth = { preHandler: requireAuth };

  app.get('/file-service/thumbnail/:thumbnailID', auth, async (request, reply) => {
    const { thumbnailID } = parseInput(thumbnailParams, request.params);
    // A thumbnail id names one immutable image.
    return sendAsset(request, reply, await media.thumbnail(authOf(request).accountId, thumbnailID), 'private, max-age=31536000, immutable');
  });

  app.get('/file-service/full-thumbnail/:id', auth, async (request, reply) => {
    return sendAsset(request, reply, await media.fullImage(authOf(request).accountId, parseInput(idParams, request.params).id));
  });
}
