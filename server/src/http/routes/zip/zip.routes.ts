import { downloadZipQuery } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZipService } from '../../../services/zip.service.js';
import { attachmentHeader } from '../../content-disposition.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { meteredDownload } from '../../../observability/metered-stream.js';

export interface ZipRoutesDeps {
  zips: ZipService;
  requireAuth: preHandlerAsyncHookHandler;
}

/** Query keys arrive as `folderIDs[]`; the schema names them without brackets. */
function withoutBrackets(query: unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries((query ?? {}) as Record<string, unknown>).map(([k, v]) => [k.replace(/\[\]$/, ''), v]));
}

export function zipRoutes(app: FastifyInstance, deps: ZipRoutesDeps): void {
  app.get('/folder-service/download-zip', { preHandler: deps.requireAuth }, async (request, reply) => {
    const { folderIDs, fileIDs } = parseInput(downloadZipQuery, withoutBrackets(request.query));
    const zip = await deps.zips.open(authOf(request).accountId, folderIDs, fileIDs);
    void reply
      .type('application/zip')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('content-disposition', attachmentHeader(zip.filename))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff');
    if (request.method === 'HEAD') {
      // Nothing has been read yet; a HEAD must not walk the tree and decrypt every file.
      zip.stream.destroy();
      return reply.send();
    }
    return reply.send(meteredDownload(zip.stream, request.server.transfers));
  });
}
