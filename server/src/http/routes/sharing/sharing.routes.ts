import { shareLinkParams, type FileDto, type LinkedFileDto, type PublicFileDto } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { ShareService } from '../../../services/sharing/share.service.js';
import type { DownloadService } from '../../../services/downloads/download.service.js';
import { authOf } from '../../plugins/auth.js';
import { sendStoredFile } from '../../send-stored-file.js';
import { PUBLIC_HEADERS } from '../../plugins/public-headers.js';
import { parseInput } from '../../validation.js';
import { presentFile } from '../files/files.presenter.js';
import { presentLinkedFile, presentPublicFile } from './sharing.presenter.js';

export interface SharingRoutesDeps {
  shares: ShareService;
  downloads: DownloadService;
  requireAuth: preHandlerAsyncHookHandler;
}

const idParams = z.object({ id: z.string().min(1).max(64) });

export function sharingRoutes(app: FastifyInstance, deps: SharingRoutesDeps): void {
  const { shares, downloads } = deps;
  const auth = { preHandler: deps.requireAuth };

  app.patch('/file-service/make-public/:id', auth, async (request): Promise<LinkedFileDto> => {
    return presentLinkedFile(await shares.makePublic(authOf(request).accountId, parseInput(idParams, request.params).id));
  });

  app.patch('/file-service/make-one/:id', auth, async (request): Promise<LinkedFileDto> => {
    return presentLinkedFile(await shares.makeOneTime(authOf(request).accountId, parseInput(idParams, request.params).id));
  });

  app.patch('/file-service/remove-link/:id', auth, async (request): Promise<FileDto> => {
    return presentFile(await shares.removeLink(authOf(request).accountId, parseInput(idParams, request.params).id));
  });

  app.get('/file-service/public/info/:id/:token', async (request): Promise<PublicFileDto> => {
    const { id, token } = parseInput(shareLinkParams, request.params);
    return presentPublicFile(await shares.publicInfo(id, token));
  });

  app.get('/file-service/public/download/:id/:token', async (request, reply) => {
    const { id, token } = parseInput(shareLinkParams, request.params);
    const { asset, isOneTime } = await downloads.sharedFile(id, token, request.method !== 'HEAD');
    if (isOneTime) {
      // The link is spent by now: a 304 or a partial body would leave the caller without the file.
      delete request.headers['if-none-match'];
      delete request.headers['if-modified-since'];
    }
    return sendStoredFile(request, reply, asset, (range) => asset.open(range), {
      disposition: 'attachment',
      allowRanges: !isOneTime,
      cacheControl: PUBLIC_HEADERS['cache-control'],
    });
  });
}
