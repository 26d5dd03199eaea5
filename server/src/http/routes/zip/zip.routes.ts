import { downloadZipQuery } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZipService } from '../../../services/downloads/zip.service.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { sendZip } from '../../send-zip.js';

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
    return sendZip(request, reply, await deps.zips.open(authOf(request).accountId, folderIDs, fileIDs));
  });
}
