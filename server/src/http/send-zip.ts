import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { meteredDownload } from '../observability/metered-stream.js';
import type { ZipDownload } from '../services/downloads/zip.service.js';
import { attachmentHeader } from './content-disposition.js';

/** A zip built as it streams, as an attachment nothing may cache or run; with its length when known. */
export function sendZip(request: FastifyRequest, reply: FastifyReply, zip: ZipDownload): FastifyReply {
  void reply
    .type('application/zip')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('content-disposition', attachmentHeader(zip.filename))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff');
  if (zip.length !== undefined) void reply.header('content-length', String(zip.length));
  if (request.method === 'HEAD') {
    // Nothing has been read yet; a HEAD must not decrypt every file. An empty stream keeps the length.
    zip.stream.destroy();
    return reply.send(zip.length === undefined ? undefined : Readable.from([]));
  }
  return reply.send(meteredDownload(zip.stream, request.server.transfers));
}
