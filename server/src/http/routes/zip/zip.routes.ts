import { downloadZipQuery } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZipService } from '../../../services/downloads/zip.service.js';
import type { ItemAccess } from '../../../services/sharing/item-access.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { sendZip } from '../../send-zip.js';
import { binaryAnswer, signedIn } from '../../api-schemas.js';

export interface ZipRoutesDeps {
  zips: ZipService;
  /** Items shared with the caller zip like their own, all from one drive at a time. */
  access: ItemAccess;
  requireAuth: preHandlerAsyncHookHandler;
}

/** Query keys arrive as `folderIDs[]`; the schema names them without brackets. */
function withoutBrackets(query: unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries((query ?? {}) as Record<string, unknown>).map(([k, v]) => [k.replace(/\[\]$/, ''), v]));
}

export function zipRoutes(app: FastifyInstance, deps: ZipRoutesDeps): void {
  const schema = signedIn({
    summary: 'Download folders and files as one zip',
    description: 'Query keys may be written `folderIDs[]` and `fileIDs[]` as well.',
    tags: ['folders'],
    querystring: downloadZipQuery,
    response: { 200: binaryAnswer('A zip of the items', 'application/zip') },
    errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'FILE_NOT_FOUND', 'FOLDER_NOT_FOUND', 'SHARE_MOVE_REFUSED'],
  });
  app.get('/folder-service/download-zip', { preHandler: deps.requireAuth, schema }, async (request, reply) => {
    const { folderIDs, fileIDs } = parseInput(downloadZipQuery, withoutBrackets(request.query));
    const items = [...folderIDs.map((id) => ({ type: 'folder' as const, id })), ...fileIDs.map((id) => ({ type: 'file' as const, id }))];
    const reach = await deps.access.items(authOf(request).accountId, items, 'read');
    return sendZip(request, reply, await deps.zips.open(reach.ownerId, folderIDs, fileIDs));
  });
}
