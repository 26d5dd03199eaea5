import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { TusUploadRow, TusUploadService } from '../../../services/uploads/tus-upload.service.js';
import { DomainError, InvalidError, NotFoundError } from '../../../domain/errors.js';
import type { ItemAccess } from '../../../services/sharing/item-access.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import type { ErrorCode } from '@nimbus/common';
import { noContent } from '../../api-schemas.js';

export interface TusRoutesDeps {
  tus: TusUploadService;
  /** Uploads into a folder shared with the caller as editor are the owner's; the editor may continue them. */
  access: ItemAccess;
  requireAuth: preHandlerAsyncHookHandler;
}

const BASE = '/file-service/tus';
const TUS_VERSION = '1.0.0';
const EXTENSIONS = 'creation,creation-with-upload,termination,expiration,checksum';
const OFFSET_TYPE = 'application/offset+octet-stream';
const MAX_METADATA_BYTES = 8 * 1024;

const idParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/) });
/** `replaces` in Upload-Metadata: the id of the file whose content the upload replaces. */
const replacesId = z.string().regex(/^[0-9a-z]{1,64}$/, 'replaces must be a file id');
const byteCount = z
  .string()
  .regex(/^\d{1,16}$/)
  .transform(Number)
  .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));

/** `Upload-Metadata`: comma-separated `key base64value` pairs (RFC-less, tus 1.0 §creation). */
export function parseMetadata(header: string | undefined): Map<string, string> {
  const pairs = new Map<string, string>();
  if (!header) return pairs;
  if (Buffer.byteLength(header) > MAX_METADATA_BYTES) throw new InvalidError('Upload-Metadata is too long');
  for (const part of header.split(',')) {
    const [key, value, extra] = part.trim().split(' ');
    if (!key || extra !== undefined || !/^[\x21-\x7e]+$/.test(key) || pairs.has(key)) throw new InvalidError('Malformed Upload-Metadata');
    if (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw new InvalidError('Malformed Upload-Metadata');
    pairs.set(key, value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8'));
  }
  return pairs;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function requireTusVersion(request: FastifyRequest): void {
  if (header(request, 'tus-resumable') !== TUS_VERSION) {
    throw new DomainError('TUS_VERSION_UNSUPPORTED', `Tus-Resumable ${TUS_VERSION} is required`);
  }
}

/** `Upload-Checksum: sha256 <base64>`; other algorithms are refused (400). */
function parseChecksum(value: string | undefined): Buffer | null {
  if (value === undefined) return null;
  const m = /^sha256 ([A-Za-z0-9+/]{43}=)$/.exec(value.trim());
  if (!m) throw new InvalidError('Upload-Checksum must be "sha256 <base64 digest>"');
  return Buffer.from(m[1]!, 'base64');
}

function stateHeaders(reply: FastifyReply, upload: TusUploadRow, showsFileId: boolean): void {
  void reply.headers({
    'upload-offset': String(upload.offset),
    'upload-expires': new Date(upload.expiresAt).toUTCString(),
    'cache-control': 'no-store',
  });
  if (showsFileId && upload.fileId) void reply.header('nimbus-file-id', upload.fileId);
}

/** Who may create and touch uploads at one tus endpoint. */
export interface TusAccess {
  preHandler?: preHandlerAsyncHookHandler;
  /** Makes the upload for a creation request (its length and metadata already read). */
  create(
    request: FastifyRequest,
    input: { length: number; filename: string; metadata: Map<string, string>; rawMetadata: string },
  ): Promise<TusUploadRow>;
  /** The caller's upload by id; anyone else's answers not found. */
  find(request: FastifyRequest, id: string): Promise<TusUploadRow>;
  /** An upload the caller may continue that `ownerOf` does not name (one into a folder shared with them). */
  findOther?(request: FastifyRequest, id: string): Promise<TusUploadRow>;
  /**
   * The account whose own uploads (not those made through its drop links) are the caller's, when
   * that is known without reading the upload: a PATCH then goes straight to storing its piece, the
   * ownership checked as the upload is taken.
   */
  ownerOf?(request: FastifyRequest): string;
  /** Whether answers name the file an upload became: only to its owner, never to a link's visitor. */
  showsFileId?: boolean;
  /** How the endpoint reads in the API reference: the parameters of `base`, who may call, what it refuses. */
  docs: { tag: string; params?: z.ZodObject; security?: Record<string, string[]>[]; errors: readonly ErrorCode[] };
}

/**
 * tus 1.0.0 resumable uploads with the creation, creation-with-upload, termination, expiration
 * and checksum (sha256) extensions, at `base`. The protocol is small and every piece must go
 * through Nimbus's own sealing and row-after-bytes rule, so it is written here over
 * TusUploadService rather than adapted from a server built around its own stores.
 */
export function registerTusProtocol(app: FastifyInstance, base: string, tus: TusUploadService, access: TusAccess): void {
  void app.register(async (scope) => {
    // Pieces are streamed by the handler, never buffered by the framework.
    scope.addContentTypeParser(OFFSET_TYPE, (_request, _payload, done) => done(null));
    scope.addHook('onSend', async (_request, reply) => {
      void reply.header('tus-resumable', TUS_VERSION);
    });
    const guarded = access.preHandler ? { preHandler: access.preHandler } : {};

    const options = async (_request: FastifyRequest, reply: FastifyReply) => {
      void reply.headers({ 'tus-version': TUS_VERSION, 'tus-extension': EXTENSIONS, 'tus-checksum-algorithm': 'sha256' });
      if (tus.limits.maxUploadBytes !== null) void reply.header('tus-max-size', String(tus.limits.maxUploadBytes));
      return reply.status(204).send();
    };
    const { docs } = access;
    const uploadParams = docs.params ? docs.params.extend(idParams.shape) : idParams;
    const guard = { ...(docs.security ? { security: docs.security } : {}), tags: [docs.tag] };
    const tusHeaders = { 'tus-resumable': z.literal(TUS_VERSION) };
    const checksum = { 'upload-checksum': z.string().optional().describe('sha256 <base64 digest>') };
    const refusals = ['TUS_VERSION_UNSUPPORTED', 'VALIDATION_FAILED', 'NOT_FOUND', ...docs.errors] as const;
    const storing = [
      'UPLOAD_OFFSET_MISMATCH',
      'UPLOAD_BUSY',
      'CHECKSUM_MISMATCH',
      'QUOTA_EXCEEDED',
      'INSUFFICIENT_STORAGE',
      'FOLDER_NOT_FOUND',
    ] as const;
    const optionsSchema = (params?: z.ZodObject) => ({
      summary: 'tus: the protocol version, extensions and size limit',
      tags: [docs.tag],
      ...(params ? { params } : {}),
      response: { 204: noContent },
    });
    scope.options(base, { schema: optionsSchema(docs.params) }, options);
    scope.options(`${base}/:id`, { schema: optionsSchema(uploadParams) }, options);

    const showsFileId = access.showsFileId ?? false;
    const append = async (
      request: FastifyRequest,
      reply: FastifyReply,
      upload: Pick<TusUploadRow, 'ownerId' | 'id' | 'dropLinkId'>,
      offset: number,
    ) => {
      const checksum = parseChecksum(header(request, 'upload-checksum'));
      const result = await tus.append(upload.ownerId, upload.id, offset, request.raw, checksum, upload.dropLinkId);
      stateHeaders(reply, result.upload, showsFileId);
      return result;
    };

    const createSchema = {
      summary: 'tus: start a resumable upload',
      description:
        'The `Location` header of the answer names the upload; a body of type application/offset+octet-stream is its first piece.',
      ...guard,
      ...(docs.params ? { params: docs.params } : {}),
      headers: z.object({
        ...tusHeaders,
        'upload-length': z.string().describe('Bytes'),
        'upload-metadata': z
          .string()
          .optional()
          .describe(
            "`filename` (required) and `parent` (a folder id), base64-encoded; `replaces` (a file id) makes the finished upload that file's new content instead of a new file",
          ),
        ...checksum,
      }),
      response: { 201: noContent },
      errors: [...refusals, ...storing, 'CONFLICT'],
    } as const;
    scope.post(base, { ...guarded, config: { streamsBody: true }, schema: createSchema }, async (request, reply) => {
      requireTusVersion(request);
      if (header(request, 'upload-defer-length') !== undefined) throw new InvalidError('Upload-Defer-Length is not supported');
      const lengthHeader = header(request, 'upload-length');
      if (lengthHeader === undefined) throw new InvalidError('Upload-Length is required');
      const length = parseInput(byteCount, lengthHeader);
      const rawMetadata = header(request, 'upload-metadata') ?? '';
      const metadata = parseMetadata(rawMetadata);
      const filename = metadata.get('filename');
      if (!filename) throw new InvalidError('Upload-Metadata needs a filename');
      const upload = await access.create(request, { length, filename, metadata, rawMetadata });
      void reply.status(201).header('location', `${request.url.split('?')[0]}/${upload.id}`);
      const hasBody = Number(header(request, 'content-length') ?? 0) > 0 || header(request, 'transfer-encoding') !== undefined;
      if (hasBody && header(request, 'content-type') === OFFSET_TYPE) await append(request, reply, upload, 0);
      else stateHeaders(reply, upload, showsFileId);
      return reply.send();
    });

    const headSchema = {
      summary: "tus: an upload's offset and length",
      ...guard,
      params: uploadParams,
      headers: z.object(tusHeaders),
      response: { 200: noContent },
      errors: refusals,
    } as const;
    // An explicit HEAD, not a GET's twin: the reference lists it.
    scope.head(
      `${base}/:id`,
      { ...guarded, schema: headSchema, config: { swagger: { exposeHeadRoute: true } } },
      async (request, reply) => {
        requireTusVersion(request);
        const upload = await tus.settle(await access.find(request, parseInput(idParams, request.params).id));
        stateHeaders(reply, upload, showsFileId);
        void reply.header('upload-length', String(upload.length));
        if (upload.metadata) void reply.header('upload-metadata', upload.metadata);
        return reply.status(200).send();
      },
    );

    const patchSchema = {
      summary: 'tus: store the next piece of an upload',
      ...guard,
      consumes: [OFFSET_TYPE],
      params: uploadParams,
      headers: z.object({ ...tusHeaders, 'upload-offset': z.string().describe('Bytes stored so far'), ...checksum }),
      body: z.string().describe('binary'),
      response: { 204: noContent },
      errors: [...refusals, ...storing, 'UNSUPPORTED_MEDIA_TYPE'],
    } as const;
    scope.patch(`${base}/:id`, { ...guarded, config: { streamsBody: true }, schema: patchSchema }, async (request, reply) => {
      requireTusVersion(request);
      if (header(request, 'content-type') !== OFFSET_TYPE) {
        throw new DomainError('UNSUPPORTED_MEDIA_TYPE', `PATCH bodies must be ${OFFSET_TYPE}`);
      }
      const offsetHeader = header(request, 'upload-offset');
      if (offsetHeader === undefined) throw new InvalidError('Upload-Offset is required');
      const offset = parseInput(byteCount, offsetHeader);
      const id = parseInput(idParams, request.params).id;
      const upload = access.ownerOf ? { ownerId: access.ownerOf(request), id, dropLinkId: null } : await access.find(request, id);
      try {
        await append(request, reply, upload, offset);
      } catch (err) {
        // Not the caller's own: one they started in a shared folder. Nothing of the body was read yet.
        if (!(err instanceof NotFoundError) || !access.findOther) throw err;
        await append(request, reply, await access.findOther(request, id), offset);
      }
      return reply.status(204).send();
    });

    const deleteSchema = {
      summary: 'tus: cancel an upload',
      ...guard,
      params: uploadParams,
      headers: z.object(tusHeaders),
      response: { 204: noContent },
      errors: refusals,
    } as const;
    scope.delete(`${base}/:id`, { ...guarded, schema: deleteSchema }, async (request, reply) => {
      requireTusVersion(request);
      const upload = await access.find(request, parseInput(idParams, request.params).id);
      await tus.terminate(upload.ownerId, upload.id);
      return reply.status(204).send();
    });
  });
}

/** The signed-in account's resumable uploads. */
export function tusRoutes(app: FastifyInstance, deps: TusRoutesDeps): void {
  const { tus, access } = deps;
  /** An upload into a folder shared with the caller as editor, made by anyone who may still write there. */
  const findShared = async (request: FastifyRequest, id: string): Promise<TusUploadRow> => {
    const target = await tus.targetOf(id);
    if (!target || target.dropLinkId !== null) throw new NotFoundError('NOT_FOUND', 'Upload not found');
    const callerId = authOf(request).accountId;
    // A replacement is the file's: an editor of the file (or of a folder above it) may continue it.
    const reached =
      target.replacesFileId !== null
        ? access.file(callerId, target.replacesFileId, 'write')
        : target.folderId !== null
          ? access.folder(callerId, target.folderId, 'write')
          : null;
    if (!reached) throw new NotFoundError('NOT_FOUND', 'Upload not found');
    const reach = await reached.catch((err: unknown) => {
      throw err instanceof NotFoundError ? new NotFoundError('NOT_FOUND', 'Upload not found') : err;
    });
    if (!reach.share) throw new NotFoundError('NOT_FOUND', 'Upload not found');
    return tus.get(reach.ownerId, id, null);
  };
  registerTusProtocol(app, BASE, tus, {
    preHandler: deps.requireAuth,
    create: async (request, input) => {
      const callerId = authOf(request).accountId;
      const replaces = input.metadata.get('replaces');
      if (replaces !== undefined) {
        // The owner's file or one the caller edits through a share; a viewer is refused (403).
        const fileId = parseInput(replacesId, replaces);
        const reach = await access.file(callerId, fileId, 'write');
        return tus.create(reach.ownerId, {
          length: input.length,
          filename: input.filename,
          parent: '/',
          metadata: input.rawMetadata,
          replaces: fileId,
          authorId: callerId,
        });
      }
      const parent = input.metadata.get('parent') || '/';
      const reach = await access.parent(callerId, parent, 'write');
      return tus.create(reach.ownerId, {
        length: input.length,
        filename: input.filename,
        parent,
        metadata: input.rawMetadata,
        authorId: callerId,
      });
    },
    // A visitor's upload through one of the account's drop links stays the visitor's.
    find: async (request, id) => {
      try {
        return await tus.get(authOf(request).accountId, id, null);
      } catch (err) {
        if (err instanceof NotFoundError) return findShared(request, id);
        throw err;
      }
    },
    findOther: findShared,
    ownerOf: (request) => authOf(request).accountId,
    showsFileId: true,
    docs: { tag: 'uploads', security: [{ session: [] }], errors: ['UNAUTHENTICATED', 'SHARE_READ_ONLY', 'FILE_NOT_FOUND'] },
  });
}
