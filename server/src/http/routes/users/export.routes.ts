import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZipService } from '../../../services/downloads/zip.service.js';
import { sendZip } from '../../send-zip.js';
import { authOf } from '../../plugins/auth.js';
import { binaryAnswer, signedIn } from '../../api-schemas.js';

export interface ExportRoutesDeps {
  zips: ZipService;
  requireAuth: preHandlerAsyncHookHandler;
}

/** "Export my drive": every active file of the signed-in user, with its folders, as one streamed zip. */
export function exportRoutes(app: FastifyInstance, deps: ExportRoutesDeps): void {
  const schema = signedIn({
    summary: 'Export the whole drive as one zip',
    tags: ['users'],
    response: { 200: binaryAnswer('A zip of every file, in its folders', 'application/zip') },
  });
  app.get('/user-service/export', { preHandler: deps.requireAuth, schema }, async (request, reply) => {
    return sendZip(request, reply, await deps.zips.openDrive(authOf(request).accountId));
  });
}
