import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { ZipService } from '../../../services/zip.service.js';
import { attachmentHeader } from '../../content-disposition.js';
import { authOf } from '../../plugins/auth.js';

export interface ExportRoutesDeps {
  zips: ZipService;
  requireAuth: preHandlerAsyncHookHandler;
}

/** "Export my drive": every active file of the signed-in user, with its folders, as one streamed zip. */
export function exportRoutes(app: FastifyInstance, deps: ExportRoutesDeps): void {
  app.get('/user-service/export', { preHandler: deps.requireAuth }, async (request, reply) => {
    const zip = deps.zips.openDrive(authOf(request).accountId);
    void reply
      .type('application/zip')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('content-disposition', attachmentHeader(zip.filename))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff');
    if (request.method === 'HEAD') {
      // Nothing has been read yet; a HEAD must not walk the drive and decrypt every file.
      zip.stream.destroy();
      return reply.send();
    }
    return reply.send(zip.stream);
  });
}
