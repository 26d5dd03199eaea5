import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { ByteRange } from '../services/downloads/stored-asset.js';
import { attachmentHeader } from './content-disposition.js';
import { sendError } from './plugins/error-handler.js';
import { parseRange } from '../domain/byte-range.js';
import { meteredDownload } from '../observability/metered-stream.js';

export interface StoredFileView {
  filename: string;
  size: number;
  contentType: string;
  sha256: string;
  modifiedAt: number;
}

export interface SendOptions {
  disposition: 'attachment' | 'inline';
  /** Cache-Control; private by default since the bytes belong to one account. */
  cacheControl?: string;
  /** False for one-time links: they serve exactly one whole body. */
  allowRanges?: boolean;
  /** The entity tag; the content hash by default. */
  etag?: string;
}

/**
 * Types a browser may show from the app's origin: raster images, audio, video, PDF and plain text.
 * Anything else (HTML, SVG, XHTML, JavaScript, CSS…) is sent as opaque bytes, so an upload can
 * never run as a page or a script of the app, whatever a link points at.
 */
const SHOWN_AS_IS = /^(image\/(?!svg)[\w.+-]+|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf|text\/plain)$/;

export function servedContentType(contentType: string): string {
  return SHOWN_AS_IS.test(contentType) ? contentType : 'application/octet-stream';
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*');
}

/**
 * Answers with a stored file: Content-Length, ETag/Last-Modified with conditional GET,
 * a single Range (206), 416 for unsatisfiable ranges, HEAD, and a safe Content-Disposition.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: StoredFileView,
  open: (range?: ByteRange) => Promise<Readable>,
  options: SendOptions,
): Promise<FastifyReply> {
  const etag = options.etag ?? `"${file.sha256}"`;
  const lastModified = new Date(Math.floor(file.modifiedAt / 1000) * 1000);
  void reply
    .header('etag', etag)
    .header('last-modified', lastModified.toUTCString())
    .header('cache-control', options.cacheControl ?? 'private, no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'same-origin')
    .header('content-disposition', attachmentHeader(file.filename, options.disposition));
  // User bytes never act as a document of the app: no scripts, no plugins, a unique origin.
  // (A PDF keeps the app's own policy: Chromium does not render PDF in a sandbox.)
  if (file.contentType !== 'application/pdf') void reply.header('content-security-policy', "default-src 'none'; sandbox");
  const allowRanges = options.allowRanges !== false;
  if (allowRanges) void reply.header('accept-ranges', 'bytes');

  const ifNoneMatch = request.headers['if-none-match'];
  const ifModifiedSince = request.headers['if-modified-since'];
  if (etagMatches(ifNoneMatch, etag) || (!ifNoneMatch && ifModifiedSince && Date.parse(ifModifiedSince) >= lastModified.getTime())) {
    return reply.status(304).send();
  }

  const ifRange = request.headers['if-range'] as string | undefined;
  const rangeHonoured = allowRanges && (!ifRange || ifRange === etag || Date.parse(ifRange) === lastModified.getTime());
  const requested = rangeHonoured ? parseRange(request.headers.range, file.size) : ({ kind: 'whole' } as const);
  if (requested.kind === 'unsatisfiable') {
    void reply.header('content-range', `bytes */${file.size}`);
    return sendError(request, reply, 'RANGE_NOT_SATISFIABLE', 'Requested range not satisfiable');
  }

  const range = requested.kind === 'partial' ? requested.range : undefined;
  const length = range ? range.end - range.start + 1 : file.size;
  void reply.type(servedContentType(file.contentType)).header('content-length', String(length));
  if (range) void reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
  // An empty stream keeps the Content-Length set above; HEAD never reads stored bytes.
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  return reply.send(file.size === 0 ? '' : meteredDownload(await open(range), request.server.transfers));
}
