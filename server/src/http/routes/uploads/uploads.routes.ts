import { parentRef, type FileDto, type FolderDto } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { FileRow } from '../../../db/repositories/file.repository.js';
import type { FolderRow } from '../../../db/repositories/folder.repository.js';
import { DomainError, InvalidError } from '../../../domain/errors.js';
import type { UploadService } from '../../../services/upload.service.js';
import { field, readMultipart, type Fields } from '../../multipart.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { presentFile } from '../files/files.presenter.js';
import { presentFolder } from '../folders/folders.presenter.js';

export interface UploadRoutesDeps {
  uploads: UploadService;
  maxUploadBytes: number | null;
  requireAuth: preHandlerAsyncHookHandler;
}

const MAX_FOLDER_FILES = 10_000;
const fileData = z.object({
  name: z.string().max(4096).optional(),
  path: z.string().max(8192).optional(),
  index: z.coerce.number().int().min(0).optional(),
});
type FileData = z.infer<typeof fileData>;

function parentOf(fields: Fields): string {
  return parseInput(z.object({ parent: parentRef.default('/') }), { parent: field(fields, 'parent') }).parent;
}

function parseFileData(fields: Fields): FileData[] {
  return (fields.get('file-data') ?? []).map((json) => {
    try {
      return parseInput(fileData, JSON.parse(json));
    } catch {
      throw new InvalidError('Invalid file-data part');
    }
  });
}

export function uploadRoutes(app: FastifyInstance, deps: UploadRoutesDeps): void {
  const { uploads, maxUploadBytes } = deps;
  const auth = { preHandler: deps.requireAuth };

  // The body is streamed by the handler, never buffered by the framework.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));

  app.addHook('onRequest', async (request) => {
    const length = Number(request.headers['content-length'] ?? 0);
    if (maxUploadBytes && request.url === '/file-service/upload' && length > maxUploadBytes + 64 * 1024) {
      throw new DomainError('PAYLOAD_TOO_LARGE', `File is larger than ${maxUploadBytes} bytes`);
    }
  });

  app.post('/file-service/upload', auth, async (request, reply): Promise<FileDto> => {
    const ownerId = authOf(request).accountId;
    const { results } = await readMultipart(request, { files: 1, fields: 20 }, async (stream, info, fields) => {
      if (info.field !== 'file') return void stream.resume();
      const folderId = await uploads.folders.resolveActiveParent(ownerId, parentOf(fields));
      const filename = field(fields, 'filename') || info.filename || 'Untitled';
      return uploads.storeFile({ ownerId, filename, folderId, body: stream });
    });
    const file = results.find((r): r is FileRow => r !== undefined);
    if (!file) throw new InvalidError('The upload has no file part');
    void reply.status(201);
    return presentFile(file);
  });

  app.post('/folder-service/upload', auth, async (request, reply): Promise<{ files: FileDto[]; folders: FolderDto[] }> => {
    const ownerId = authOf(request).accountId;
    const createdFolders: FolderRow[] = [];
    const folderByPath = new Map<string, string>();
    let position = 0;

    // Creates (once per upload) the folders along a relative path and returns the innermost one.
    const folderFor = async (root: string, segments: string[]): Promise<string> => {
      let parent = root;
      for (let i = 0; i < segments.length; i++) {
        const key = segments.slice(0, i + 1).join('/');
        let id = folderByPath.get(key);
        if (!id) {
          const folder = await uploads.folders.create(ownerId, segments[i]!, parent);
          createdFolders.push(folder);
          id = folder.id;
          folderByPath.set(key, id);
        }
        parent = id;
      }
      return parent;
    };

    const { results } = await readMultipart(
      request,
      { files: MAX_FOLDER_FILES, fields: MAX_FOLDER_FILES + 10 },
      async (stream, info, fields) => {
        const index = position++;
        const root = parentOf(fields);
        await uploads.folders.resolveActiveParent(ownerId, root);
        const data = parseFileData(fields);
        const meta = data.find((d) => d.index === index) ?? data[index];
        const segments = (meta?.path || meta?.name || info.filename || 'Untitled')
          .split('/')
          .filter((s) => s !== '' && s !== '.' && s !== '..');
        const name = segments.pop() ?? 'Untitled';
        const folderId = await folderFor(root, segments);
        return uploads.storeFile({ ownerId, filename: name, folderId: folderId === '/' ? null : folderId, body: stream });
      },
    );
    void reply.status(201);
    return { files: results.map(presentFile), folders: createdFolders.map(presentFolder) };
  });
}
