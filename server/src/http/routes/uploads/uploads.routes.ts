import { parentRef, type FileDto, type FolderDto } from '@nimbus/common';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { FileRow } from '../../../services/drive/file.service.js';
import { DomainError, InvalidError } from '../../../domain/errors.js';
import type { FolderUploadService } from '../../../services/uploads/folder-upload.service.js';
import type { UploadService } from '../../../services/uploads/upload.service.js';
import { field, readMultipart, type Fields } from '../../multipart.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { fileDto, folderDto, signedIn } from '../../api-schemas.js';
import type { FolderUpload } from '../../../services/uploads/folder-upload.service.js';
import type { ItemAccess, ItemAccessAnswer } from '../../../services/sharing/item-access.js';
import { presentSharedFile } from '../files/files.presenter.js';
import { presentSharedFolder } from '../folders/folders.presenter.js';
import { sharedAccessOf } from '../item-shares/item-shares.presenter.js';

export interface UploadRoutesDeps {
  uploads: UploadService;
  folderUploads: FolderUploadService;
  maxUploadBytes: number | null;
  /** Uploads into a folder shared with the caller as editor land in the owner's drive. */
  access: ItemAccess;
  requireAuth: preHandlerAsyncHookHandler;
}

const MAX_FOLDER_FILES = 10_000;
/** One `file-data` part is a few hundred bytes; paths are bounded by the folder depth limit. */
const MAX_FILE_DATA_BYTES = 16 * 1024;
const MAX_FOLDER_FIELD_BYTES = 8 * 1024 * 1024;
/** What the web app sends for each file of a folder upload; anything else is refused. */
const fileData = z
  .object({
    name: z.string().max(4096).optional(),
    size: z.number().int().min(0).optional(),
    type: z.string().max(256).optional(),
    path: z.string().max(8192).optional(),
    index: z.coerce.number().int().min(0).max(MAX_FOLDER_FILES).optional(),
  })
  .strict();
type FileData = z.infer<typeof fileData>;

/** Built once: zod compiles a schema's checks on its first use, which per request cost more than the check. */
const parentField = z.object({ parent: parentRef.default('/') });

function parentOf(fields: Fields): string {
  return parseInput(parentField, { parent: field(fields, 'parent') }).parent;
}

function parseFileData(json: string): FileData {
  try {
    return parseInput(fileData, JSON.parse(json));
  } catch {
    throw new InvalidError('Invalid file-data part');
  }
}

export function uploadRoutes(app: FastifyInstance, deps: UploadRoutesDeps): void {
  const { uploads, folderUploads, maxUploadBytes, access } = deps;

  // The body is streamed by the handler, never buffered by the framework.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));

  // A declared length far over the cap is refused before a byte is read.
  const refuseOversized = async (request: FastifyRequest): Promise<void> => {
    const length = Number(request.headers['content-length'] ?? 0);
    if (maxUploadBytes && length > maxUploadBytes + 64 * 1024) {
      throw new DomainError('PAYLOAD_TOO_LARGE', `File is larger than ${maxUploadBytes} bytes`);
    }
  };

  app.post(
    '/file-service/upload',
    {
      onRequest: refuseOversized,
      preHandler: deps.requireAuth,
      config: { streamsBody: true },
      schema: signedIn({
        summary: 'Upload one file',
        description: 'A multipart body: the fields first, then the `file` part.',
        tags: ['uploads'],
        consumes: ['multipart/form-data'],
        body: z.object({
          filename: z.string().optional(),
          parent: parentRef.optional().describe("A folder id, or '/' (the default)"),
          file: z.string().describe('binary'),
        }),
        response: { 201: fileDto },
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND', 'QUOTA_EXCEEDED', 'INSUFFICIENT_STORAGE', 'SHARE_READ_ONLY'],
      }),
    },
    async (request, reply): Promise<FileDto> => {
      const callerId = authOf(request).accountId;
      let reach: ItemAccessAnswer | undefined;
      const { results } = await readMultipart(request, { files: 1, fields: 20 }, async (stream, info, fields) => {
        if (info.field !== 'file') return void stream.resume();
        const filename = field(fields, 'filename') || info.filename || 'Untitled';
        const parent = parentOf(fields);
        reach = await access.parent(callerId, parent, 'write');
        return uploads.uploadInto({ ownerId: reach.ownerId, parent, filename, body: stream, author: { accountId: callerId, via: null } });
      });
      const file = results.find((r): r is FileRow => r !== undefined);
      if (!file) throw new InvalidError('The upload has no file part');
      void reply.status(201);
      return presentSharedFile(file, reach && sharedAccessOf(reach));
    },
  );

  app.post(
    '/folder-service/upload',
    {
      preHandler: deps.requireAuth,
      config: { streamsBody: true },
      schema: signedIn({
        summary: 'Upload a folder: many files with their relative paths',
        description: 'A multipart body: a `file-data` JSON part before each file part names its path.',
        tags: ['uploads'],
        consumes: ['multipart/form-data'],
        body: z.object({ parent: parentRef.optional(), 'file-data': z.array(fileData), file: z.array(z.string().describe('binary')) }),
        response: { 201: z.object({ files: z.array(fileDto), folders: z.array(folderDto) }) },
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND', 'FOLDER_TOO_DEEP', 'QUOTA_EXCEEDED', 'INSUFFICIENT_STORAGE', 'SHARE_READ_ONLY'],
      }),
    },
    async (request, reply): Promise<{ files: FileDto[]; folders: FolderDto[] }> => {
      const callerId = authOf(request).accountId;
      // The parent field comes before the files: the first file decides whose drive they all land in.
      let reach: Promise<ItemAccessAnswer> | undefined;
      let upload: FolderUpload | undefined;
      // Each file-data part is parsed once, as it arrives; files find theirs by index.
      const metaByIndex = new Map<number, FileData>();
      let parts = 0;
      const onField = (name: string, value: string): void => {
        if (name !== 'file-data') return;
        const meta = parseFileData(value);
        metaByIndex.set(meta.index ?? parts, meta);
        parts++;
      };
      let position = 0;
      let files: FileDto[];
      try {
        ({ results: files } = await readMultipart(
          request,
          {
            files: MAX_FOLDER_FILES,
            fields: MAX_FOLDER_FILES + 10,
            fieldBytes: MAX_FILE_DATA_BYTES,
            totalFieldBytes: MAX_FOLDER_FIELD_BYTES,
          },
          async (stream, info, fields) => {
            const meta = metaByIndex.get(position++);
            const parent = parentOf(fields);
            reach ??= access.parent(callerId, parent, 'write');
            const answer = await reach;
            upload ??= folderUploads.begin(answer.ownerId, { accountId: callerId, via: null });
            const file = await upload.store(parent, meta?.path || meta?.name || info.filename || 'Untitled', stream);
            // Presented as it is stored, so a large upload's answer costs no long loop at its end.
            return presentSharedFile(file, sharedAccessOf(answer));
          },
          onField,
        ));
      } catch (err) {
        await upload?.discard().catch((cleanup: unknown) => request.log.error({ err: cleanup }, 'could not undo a failed folder upload'));
        throw err;
      }
      void reply.status(201);
      const shared = reach && sharedAccessOf(await reach);
      return { files, folders: (upload?.folders ?? []).map((row) => presentSharedFolder(row, shared)) };
    },
  );
}
