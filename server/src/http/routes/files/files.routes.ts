import {
  LIMITS,
  idBody,
  itemsBody,
  listFilesQuery,
  moveBody,
  moveItemsBody,
  quickListQuery,
  renameBody,
  suggestedListQuery,
  type FileDto,
  type SuggestedListResponse,
} from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { FileService } from '../../../services/drive/file.service.js';
import type { MoveService } from '../../../services/drive/move.service.js';
import type { TrashService } from '../../../services/drive/trash.service.js';
import type { DownloadService } from '../../../services/downloads/download.service.js';
import { sendCachedJson, type AnswerCache } from '../../answer-cache.js';
import { authOf } from '../../plugins/auth.js';
import { sendStoredFile } from '../../send-stored-file.js';
import { parseInput } from '../../validation.js';
import { presentFolder } from '../folders/folders.presenter.js';
import { presentFile } from './files.presenter.js';

export interface FileRoutesDeps {
  files: FileService;
  trash: TrashService;
  moves: MoveService;
  downloads: DownloadService;
  /** Keeps list answers while the owner's drive is unchanged. */
  answers: AnswerCache;
  requireAuth: preHandlerAsyncHookHandler;
}

const idParams = z.object({ id: z.string().min(1).max(64) });

export function fileRoutes(app: FastifyInstance, deps: FileRoutesDeps): void {
  const { files, trash, moves, downloads, answers } = deps;
  const auth = { preHandler: deps.requireAuth };

  app.get('/file-service/list', auth, async (request, reply) =>
    sendCachedJson(answers, request, reply, 'file-list', async (): Promise<FileDto[]> => {
      const rows = await files.list(authOf(request).accountId, parseInput(listFilesQuery, request.query));
      return rows.map(presentFile);
    }),
  );

  app.get('/file-service/quick-list', auth, async (request, reply) =>
    sendCachedJson(answers, request, reply, 'file-quick-list', async (): Promise<FileDto[]> => {
      const { limit } = parseInput(quickListQuery, request.query);
      return (await files.quickList(authOf(request).accountId, Math.min(limit, LIMITS.mediaPageSize))).map(presentFile);
    }),
  );

  app.get('/file-service/suggested-list', auth, async (request): Promise<SuggestedListResponse> => {
    const found = await files.suggest(authOf(request).accountId, parseInput(suggestedListQuery, request.query));
    return { folderList: found.folders.map(presentFolder), fileList: found.files.map(presentFile) };
  });

  app.get('/file-service/info/:id', auth, async (request): Promise<FileDto> => {
    return presentFile(await files.get(authOf(request).accountId, parseInput(idParams, request.params).id));
  });

  app.get('/file-service/download/:id', auth, async (request, reply) => {
    const asset = await downloads.ownFile(authOf(request).accountId, parseInput(idParams, request.params).id);
    return sendStoredFile(request, reply, asset, (range) => asset.open(range), { disposition: 'attachment' });
  });

  app.patch('/file-service/rename', auth, async (request): Promise<FileDto> => {
    const body = parseInput(renameBody, request.body);
    return presentFile(await files.rename(authOf(request).accountId, body.id, body.title));
  });

  app.patch('/file-service/move', auth, async (request): Promise<FileDto> => {
    const body = parseInput(moveBody, request.body);
    return presentFile(await files.move(authOf(request).accountId, body.id, body.parentID));
  });

  app.patch('/file-service/move-multi', auth, async (request) => {
    const body = parseInput(moveItemsBody, request.body);
    await moves.moveMany(authOf(request).accountId, body.items, body.parentID);
    return { message: 'Items moved' };
  });

  const single = (type: 'file') => (body: unknown) => [{ type, id: parseInput(idBody, body).id }];
  const multi = (body: unknown) => parseInput(itemsBody, body).items;

  app.patch('/file-service/trash', auth, async (request): Promise<FileDto> => {
    const items = single('file')(request.body);
    await trash.trash(authOf(request).accountId, items);
    return presentFile(await files.get(authOf(request).accountId, items[0]!.id));
  });
  app.patch('/file-service/trash-multi', auth, async (request) => {
    await trash.trash(authOf(request).accountId, multi(request.body));
    return { message: 'Items trashed' };
  });
  app.patch('/file-service/restore', auth, async (request): Promise<FileDto> => {
    const items = single('file')(request.body);
    await trash.restore(authOf(request).accountId, items);
    return presentFile(await files.get(authOf(request).accountId, items[0]!.id));
  });
  app.patch('/file-service/restore-multi', auth, async (request) => {
    await trash.restore(authOf(request).accountId, multi(request.body));
    return { message: 'Items restored' };
  });
  app.delete('/file-service/remove', auth, async (request) => {
    await trash.remove(authOf(request).accountId, single('file')(request.body));
    return { message: 'File deleted' };
  });
  app.delete('/file-service/remove-multi', auth, async (request) => {
    await trash.remove(authOf(request).accountId, multi(request.body));
    return { message: 'Items deleted' };
  });
}
