import type { FastifyReply, FastifyRequest } from 'fastify';
import { meteredDownload } from '../observability/metered-stream.js';
import type { ZipDownload } from '../services/zip.service.js';
import { attachmentHeader } from './content-disposition.js';

/** A zip built as it streams, as an attachment nothing may cache or run. */
export function sendZip(request: FastifyRequest, reply: FastifyReply, zip: ZipDownload): FastifyReply {
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
}
