import { versionParams, type FileDto, type FileVersionListDto } from '@nimbus/common';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { FileRow } from '../../../services/drive/file.service.js';
import { DomainError, InvalidError } from '../../../domain/errors.js';
import type { ItemAccess } from '../../../services/sharing/item-access.js';
import type { UploadService } from '../../../services/uploads/upload.service.js';
import type { FileVersionService } from '../../../services/versions/file-version.service.js';
import { binaryAnswer, fileDto, messageAnswer, signedIn } from '../../api-schemas.js';
import { readMultipart } from '../../multipart.js';
import { authOf } from '../../plugins/auth.js';
import { sendStoredFile } from '../../send-stored-file.js';
import { parseInput } from '../../validation.js';
import { presentSharedFile } from '../files/files.presenter.js';
import { sharedAccessOf } from '../item-shares/item-shares.presenter.js';
import { fileParams, fileVersionListDto, versionDownloadQuery } from './versions.schemas.js';
import { presentVersionList } from './versions.presenter.js';

export interface VersionRoutesDeps {
  versions: FileVersionService;
  uploads: UploadService;
  access: ItemAccess;
  maxUploadBytes: number | null;
  requireAuth: preHandlerAsyncHookHandler;
}

/** Types a browser may show in place; everything else (SVG and HTML included) stays an attachment. */
const SHOWN_INLINE = /^(image\/(?!svg)[\w.+-]+|video\/[\w.+-]+|audio\/[\w.+-]+|application\/pdf)$/;

/** Changes through a share: a viewer may not. */
const SHARE_WRITE_ERRORS = ['SHARE_READ_ONLY'] as const;

/** A file's earlier contents: list, download, restore, delete, and "Upload new version". */
export function versionRoutes(app: FastifyInstance, deps: VersionRoutesDeps): void {
  const { versions, uploads, access, maxUploadBytes } = deps;
  const auth = { preHandler: deps.requireAuth };
  const tags = ['versions'];

  app.get(
    '/file-service/versions/:id',
    {
      ...auth,
      schema: signedIn({
        summary: "A file's current content and its versions, newest first",
        tags,
        params: fileParams,
        response: { 200: fileVersionListDto },
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND'],
      }),
    },
    async (request): Promise<FileVersionListDto> => {
      const { id } = parseInput(fileParams, request.params);
      return presentVersionList(await versions.list(authOf(request).accountId, id));
    },
  );

  app.get(
    '/file-service/versions/:id/:versionId/download',
    {
      ...auth,
      schema: signedIn({
        summary: "Download a version's bytes",
        description:
          'Named as the file. Supports `Range` (206) and conditional requests (`ETag`, 304). With `inline=true`, images, ' +
          'video, audio and PDF are shown in the browser.',
        tags,
        params: versionParams,
        querystring: versionDownloadQuery,
        response: { 200: binaryAnswer('The version'), 206: binaryAnswer('The requested range') },
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND', 'VERSION_NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
      }),
    },
    async (request, reply) => {
      const { id, versionId } = parseInput(versionParams, request.params);
      const { inline } = parseInput(versionDownloadQuery, request.query);
      const asset = await versions.download(authOf(request).accountId, id, versionId);
      const disposition = inline && SHOWN_INLINE.test(asset.contentType) ? 'inline' : 'attachment';
      return sendStoredFile(request, reply, asset, (range) => asset.open(range), { disposition });
    },
  );

  app.post(
    '/file-service/versions/:id/:versionId/restore',
    {
      ...auth,
      schema: signedIn({
        summary: 'Make a version the current content again',
        description: 'The content it replaces becomes a version in turn. Restoring content identical to the current one changes nothing.',
        tags,
        params: versionParams,
        response: { 200: fileDto },
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND', 'VERSION_NOT_FOUND', ...SHARE_WRITE_ERRORS],
      }),
    },
    async (request): Promise<FileDto> => {
      const { id, versionId } = parseInput(versionParams, request.params);
      const restored = await versions.restore(authOf(request).accountId, id, versionId);
      return presentSharedFile(restored.file, sharedAccessOf(restored.access));
    },
  );

  app.delete(
    '/file-service/versions/:id/:versionId',
    {
      ...auth,
      schema: signedIn({
        summary: 'Delete a version and its bytes (the owner only)',
        tags,
        params: versionParams,
        response: { 200: messageAnswer },
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND', 'VERSION_NOT_FOUND'],
      }),
    },
    async (request) => {
      const { id, versionId } = parseInput(versionParams, request.params);
      await versions.delete(authOf(request).accountId, id, versionId);
      return { message: 'Version deleted' };
    },
  );

  // The body is streamed by the handler; the upload routes may already have said so for the whole server.
  if (!app.hasContentTypeParser('multipart/form-data'))
    app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));

  // A declared length far over the cap is refused before a byte is read.
  const refuseOversized = async (request: FastifyRequest): Promise<void> => {
    const length = Number(request.headers['content-length'] ?? 0);
    if (maxUploadBytes && length > maxUploadBytes + 64 * 1024) {
      throw new DomainError('PAYLOAD_TOO_LARGE', `File is larger than ${maxUploadBytes} bytes`);
    }
  };

  app.post(
    '/file-service/upload-version/:id',
    {
      onRequest: refuseOversized,
      preHandler: deps.requireAuth,
      config: { streamsBody: true },
      schema: signedIn({
        summary: 'Upload new content for a file',
        description:
          'A multipart body with one `file` part. The current content becomes a version; content identical to the current ' +
          'one changes nothing. When the quota is reached, the oldest versions make room first.',
        tags,
        consumes: ['multipart/form-data'],
        params: fileParams,
        body: z.object({ file: z.string().describe('binary') }),
        response: { 200: fileDto },
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND', 'QUOTA_EXCEEDED', 'INSUFFICIENT_STORAGE', ...SHARE_WRITE_ERRORS],
      }),
    },
    async (request): Promise<FileDto> => {
      const { id } = parseInput(fileParams, request.params);
      const callerId = authOf(request).accountId;
      // Checked before a byte is stored: a viewer or a stranger sends nothing into anyone's drive.
      const reach = await access.file(callerId, id, 'write');
      const { results } = await readMultipart(request, { files: 1, fields: 20 }, async (stream, info) => {
        if (info.field !== 'file') return void stream.resume();
        return uploads.replaceContent(reach.ownerId, id, stream, { accountId: callerId, via: null });
      });
      const file = results.find((r): r is FileRow => r !== undefined);
      if (!file) throw new InvalidError('The upload has no file part');
      return presentSharedFile(file, sharedAccessOf(reach));
    },
  );
}
