import {
  SHARE_LIMITS,
  shareTokenParams,
  sharedListQuery,
  sharedZipQuery,
  unlockShareBody,
  type SharedLinkInfoDto,
  type SharedListingDto,
} from '@nimbus/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError, InvalidError } from '../../../domain/errors.js';
import type { FileRow } from '../../../services/drive/file.service.js';
import { UNLOCK_TTL_MS, type SharedAccessService, type SharedLink } from '../../../services/sharing/shared-access.service.js';
import type { StoredAsset } from '../../../services/downloads/stored-asset.js';
import { field, readMultipart } from '../../multipart.js';
import { sendStoredFile } from '../../send-stored-file.js';
import { sendZip } from '../../send-zip.js';
import type { TusUploadService } from '../../../services/uploads/tus-upload.service.js';
import { registerTusProtocol } from '../uploads/tus.routes.js';
import { PUBLIC_HEADERS } from '../../plugins/public-headers.js';
import { parseInput } from '../../validation.js';
import { binaryAnswer, sharedLinkInfoDto, sharedListingDto } from '../../api-schemas.js';
import { presentSharedFile, presentSharedFolder } from './share-links.presenter.js';

export interface SharedRoutesDeps {
  access: SharedAccessService;
  tus: TusUploadService;
  maxUploadBytes: number | null;
  secureCookies: boolean;
}

const PUBLIC_PREFIX = '/share-service/public/';
/** The visitor's proof of the password; one per link, sent only to that link's calls. */
const ACCESS_COOKIE = 'share-access';
const NO_STORE = PUBLIC_HEADERS['cache-control'];

const fileParams = shareTokenParams.extend({ fileId: z.string().min(1).max(64) });

const pathOf = (token: string) => `${PUBLIC_PREFIX}${token}`;
const accessOf = (request: FastifyRequest) => request.cookies[ACCESS_COOKIE];

/** What anyone holding a link may call, without an account. */
export function sharedRoutes(app: FastifyInstance, deps: SharedRoutesDeps): void {
  const { access } = deps;

  const enter = (request: FastifyRequest) => {
    const { token } = parseInput(shareTokenParams, request.params);
    return access.enter(token, accessOf(request));
  };

  const tags = ['public'];
  /** What any call through a link can meet: a wrong or revoked link, a spent one, a password not given. */
  const link = ['VALIDATION_FAILED', 'NOT_FOUND', 'LINK_EXPIRED', 'PASSWORD_REQUIRED'] as const;
  const asset = { 200: binaryAnswer('The bytes'), 206: binaryAnswer('The requested range') };
  const fileCalls = [...link, 'FILE_NOT_FOUND', 'FORBIDDEN', 'RANGE_NOT_SATISFIABLE'] as const;
  app.get(
    '/share-service/public/:token',
    {
      schema: {
        summary: 'What a share link shows',
        description: 'Before a protected link is unlocked, only `kind`, `itemType` and `passwordRequired`.',
        tags,
        params: shareTokenParams,
        response: { 200: sharedLinkInfoDto },
        errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'LINK_EXPIRED', 'FILE_NOT_FOUND', 'FOLDER_NOT_FOUND'],
      },
    },
    async (request): Promise<SharedLinkInfoDto> => {
      const { token } = parseInput(shareTokenParams, request.params);
      return present(await access.open(token, accessOf(request)));
    },
  );

  app.post(
    '/share-service/public/:token/unlock',
    {
      schema: {
        summary: 'Unlock a protected link with its password',
        description: "Sets the `share-access` cookie for this link's calls.",
        tags,
        params: shareTokenParams,
        body: unlockShareBody,
        response: { 200: sharedLinkInfoDto },
        errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'LINK_EXPIRED', 'WRONG_PASSWORD', 'RATE_LIMITED'],
      },
    },
    async (request, reply): Promise<SharedLinkInfoDto> => {
      const { token } = parseInput(shareTokenParams, request.params);
      const { password } = parseInput(unlockShareBody, request.body);
      const { access: proof } = await access.unlock(token, password, request.ip);
      void reply.setCookie(ACCESS_COOKIE, proof, {
        httpOnly: true,
        sameSite: 'lax',
        secure: deps.secureCookies,
        path: pathOf(token),
        maxAge: Math.floor(UNLOCK_TTL_MS / 1000),
      });
      return present(await access.open(token, proof));
    },
  );

  app.get(
    '/share-service/public/:token/list',
    {
      schema: {
        summary: 'One folder of a shared folder: its folders and a page of its files',
        tags,
        params: shareTokenParams,
        querystring: sharedListQuery,
        response: { 200: sharedListingDto },
        errors: [...link, 'FOLDER_NOT_FOUND', 'FORBIDDEN'],
      },
    },
    async (request): Promise<SharedListingDto> => {
      const shared = await enter(request);
      const q = parseInput(sharedListQuery, request.query);
      const listing = await access.list(shared, q.folder, q.sortBy, q.after);
      return {
        folder: presentSharedFolder(listing.folder),
        path: listing.path.map(presentSharedFolder),
        folders: listing.folders.map(presentSharedFolder),
        files: listing.files.map(presentSharedFile),
        next: listing.next,
      };
    },
  );

  app.get(
    '/share-service/public/:token/files/:fileId/thumbnail',
    { schema: { summary: 'The thumbnail of a shared file', tags, params: fileParams, response: asset, errors: fileCalls } },
    async (request, reply) => {
      const shared = await enter(request);
      return inline(request, reply, await access.thumbnail(shared, parseInput(fileParams, request.params).fileId));
    },
  );

  app.get(
    '/share-service/public/:token/files/:fileId/preview',
    { schema: { summary: 'A shared file as the browser can show it', tags, params: fileParams, response: asset, errors: fileCalls } },
    async (request, reply) => {
      const shared = await enter(request);
      return inline(request, reply, await access.preview(shared, parseInput(fileParams, request.params).fileId));
    },
  );

  app.get(
    '/share-service/public/:token/files/:fileId/download',
    {
      schema: {
        summary: 'Download a shared file',
        description: 'Each call takes one download of a link with a download limit, and gets the whole file.',
        tags,
        params: fileParams,
        response: asset,
        errors: fileCalls,
      },
    },
    async (request, reply) => {
      const shared = await enter(request);
      const limited = shared.link.maxDownloads !== null;
      if (limited) {
        // Each request takes one of a limited link's downloads: it gets the whole body, never a part.
        delete request.headers['if-none-match'];
        delete request.headers['if-modified-since'];
        delete request.headers.range;
      }
      const asset = await access.download(shared, parseInput(fileParams, request.params).fileId, request.method !== 'HEAD');
      return sendStoredFile(request, reply, asset, (range) => asset.open(range), {
        disposition: 'attachment',
        allowRanges: !limited,
        cacheControl: NO_STORE,
      });
    },
  );

  app.get(
    '/share-service/public/:token/zip',
    {
      schema: {
        summary: 'Download a shared folder, or one of its folders, as a zip',
        tags,
        params: shareTokenParams,
        querystring: sharedZipQuery,
        response: { 200: binaryAnswer('The zip', 'application/zip') },
        errors: [...link, 'FOLDER_NOT_FOUND', 'FORBIDDEN'],
      },
    },
    async (request, reply) => {
      const shared = await enter(request);
      const { folder } = parseInput(sharedZipQuery, request.query);
      return sendZip(request, reply, await access.zip(shared, folder, request.method !== 'HEAD'));
    },
  );

  // Resumable uploads through a drop link: the tus protocol of /file-service/tus, for the link's visitors.
  registerTusProtocol(app, '/share-service/public/:token/tus', deps.tus, {
    create: async (request, input) =>
      access.createDropUpload(await enter(request), {
        length: input.length,
        filename: input.filename,
        uploaderName: input.metadata.get('name')?.trim().slice(0, SHARE_LIMITS.uploaderNameMaxLength) || null,
        metadata: input.rawMetadata,
      }),
    docs: { tag: 'public', params: shareTokenParams, errors: ['NOT_FOUND', 'LINK_EXPIRED', 'PASSWORD_REQUIRED'] },
    find: async (request, id) => {
      const shared = await enter(request);
      if (shared.link.kind !== 'drop') throw new DomainError('NOT_FOUND', 'Upload not found');
      return deps.tus.getForLink(shared.link.id, id);
    },
  });

  app.post(
    '/share-service/public/:token/upload',
    {
      config: { streamsBody: true },
      schema: {
        summary: 'Send a file through a drop link',
        description: 'A multipart body; only the file name and size come back.',
        tags,
        consumes: ['multipart/form-data'],
        params: shareTokenParams,
        body: z.object({ name: z.string().optional().describe("The sender's name, for the owner"), file: z.string().describe('binary') }),
        response: { 201: z.object({ filename: z.string(), size: z.number() }) },
        errors: [...link, 'FOLDER_NOT_FOUND', 'QUOTA_EXCEEDED', 'INSUFFICIENT_STORAGE'],
      },
      onRequest: async (request) => {
        const length = Number(request.headers['content-length'] ?? 0);
        if (deps.maxUploadBytes && length > deps.maxUploadBytes + 64 * 1024)
          throw new DomainError('PAYLOAD_TOO_LARGE', `File is larger than ${deps.maxUploadBytes} bytes`);
      },
    },
    async (request, reply) => {
      const shared = await enter(request);
      if (shared.link.kind !== 'drop') throw new DomainError('NOT_FOUND', 'This link does not take uploads');
      const max = shared.link.maxFileBytes;
      if (max !== null && Number(request.headers['content-length'] ?? 0) > max + 64 * 1024)
        throw new DomainError('PAYLOAD_TOO_LARGE', `This link accepts files of at most ${max} bytes`);
      const { results } = await readMultipart(request, { files: 1, fields: 5, fieldBytes: 4096 }, async (stream, info, fields) => {
        if (info.field !== 'file') return void stream.resume();
        const uploaderName = field(fields, 'name')?.trim().slice(0, SHARE_LIMITS.uploaderNameMaxLength) || null;
        return access.drop(shared, { filename: info.filename || 'Untitled', body: stream, uploaderName });
      });
      const file = results.find((r): r is FileRow => r !== undefined);
      if (!file) throw new InvalidError('The upload has no file part');
      void reply.status(201);
      // The visitor learns only that the file arrived and under which name.
      return { filename: file.filename, size: file.size };
    },
  );
}

function inline(request: FastifyRequest, reply: FastifyReply, asset: StoredAsset): Promise<FastifyReply> {
  return sendStoredFile(request, reply, asset, (range) => asset.open(range), { disposition: 'inline', cacheControl: NO_STORE });
}

function present(shared: SharedLink): SharedLinkInfoDto {
  const { link } = shared;
  const info: SharedLinkInfoDto = { kind: link.kind, itemType: link.itemType, passwordRequired: !shared.unlocked };
  if (!shared.unlocked) return info;
  info.expiresAt = link.expiresAt === null ? null : new Date(link.expiresAt).toISOString();
  if (link.kind === 'drop') {
    info.name = shared.folder?.name;
    info.drop = {
      maxFileBytes: link.maxFileBytes,
      maxFiles: link.maxFiles,
      filesLeft: link.maxFiles === null ? null : Math.max(0, link.maxFiles - link.filesReceived),
    };
    return info;
  }
  info.allowDownload = link.allowDownload === 1;
  if (shared.file) {
    info.name = shared.file.filename;
    info.file = presentSharedFile(shared.file);
  }
  if (shared.folder) {
    info.name = shared.folder.name;
    info.folder = presentSharedFolder(shared.folder);
  }
  return info;
}
