import { shareLinkParams, type FileDto, type LinkedFileDto, type PublicFileDto } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { ShareService } from '../../../services/sharing/share.service.js';
import type { DownloadService } from '../../../services/downloads/download.service.js';
import { authOf } from '../../plugins/auth.js';
import { sendStoredFile } from '../../send-stored-file.js';
import { PUBLIC_HEADERS } from '../../plugins/public-headers.js';
import { parseInput } from '../../validation.js';
import { binaryAnswer, fileDto, linkedFileDto, publicFileDto, signedIn } from '../../api-schemas.js';
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

  const tags = ['sharing'];
  const ownFile = ['VALIDATION_FAILED', 'FILE_NOT_FOUND'] as const;
  app.patch(
    '/file-service/make-public/:id',
    {
      ...auth,
      schema: signedIn({ summary: 'Give a file a public link', tags, params: idParams, response: { 200: linkedFileDto }, errors: ownFile }),
    },
    async (request): Promise<LinkedFileDto> => {
      return presentLinkedFile(await shares.makePublic(authOf(request).accountId, parseInput(idParams, request.params).id));
    },
  );

  app.patch(
    '/file-service/make-one/:id',
    {
      ...auth,
      schema: signedIn({
        summary: 'Give a file a one-time link',
        tags,
        params: idParams,
        response: { 200: linkedFileDto },
        errors: ownFile,
      }),
    },
    async (request): Promise<LinkedFileDto> => {
      return presentLinkedFile(await shares.makeOneTime(authOf(request).accountId, parseInput(idParams, request.params).id));
    },
  );

  app.patch(
    '/file-service/remove-link/:id',
    {
      ...auth,
      schema: signedIn({
        summary: "Remove a file's public or one-time link",
        tags,
        params: idParams,
        response: { 200: fileDto },
        errors: ownFile,
      }),
    },
    async (request): Promise<FileDto> => {
      return presentFile(await shares.removeLink(authOf(request).accountId, parseInput(idParams, request.params).id));
    },
  );

  app.get(
    '/file-service/public/info/:id/:token',
    {
      schema: {
        summary: 'What a public or one-time file link shows',
        tags: ['public'],
        params: shareLinkParams,
        response: { 200: publicFileDto },
        errors: ownFile,
      },
    },
    async (request): Promise<PublicFileDto> => {
      const { id, token } = parseInput(shareLinkParams, request.params);
      return presentPublicFile(await shares.publicInfo(id, token));
    },
  );

  const downloadSchema = {
    summary: 'Download a file through its public or one-time link',
    description: 'A one-time link is spent by this call. Supports `Range` on public links.',
    tags: ['public'],
    params: shareLinkParams,
    response: { 200: binaryAnswer('The file'), 206: binaryAnswer('The requested range') },
    errors: [...ownFile, 'RANGE_NOT_SATISFIABLE'],
  } as const;
  app.get('/file-service/public/download/:id/:token', { schema: downloadSchema }, async (request, reply) => {
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
