import { createFolderBody, idBody, listFoldersQuery, moveBody, moveFolderListQuery, renameBody, type FolderDto } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { FolderService } from '../../../services/drive/folder.service.js';
import type { TrashService } from '../../../services/drive/trash.service.js';
import { sendCachedJson, type AnswerCache } from '../../answer-cache.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { folderDto, messageAnswer, signedIn } from '../../api-schemas.js';
import { presentFolder } from './folders.presenter.js';

export interface FolderRoutesDeps {
  folders: FolderService;
  trash: TrashService;
  /** Keeps list answers while the owner's drive is unchanged. */
  answers: AnswerCache;
  requireAuth: preHandlerAsyncHookHandler;
}

const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Query keys arrive as `folderIDs[]` or `folderIDs`, once or repeated; the schemas name them without
 * brackets, and a key spelled both ways keeps the values of both.
 */
function withoutBrackets(query: unknown): Record<string, unknown> {
  const merged = new Map<string, unknown>();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    const name = key.replace(/\[\]$/, '');
    const before = merged.get(name);
    merged.set(name, before === undefined ? value : [before, value].flat());
  }
  return Object.fromEntries(merged);
}

export function folderRoutes(app: FastifyInstance, deps: FolderRoutesDeps): void {
  const { folders, trash, answers } = deps;
  const auth = { preHandler: deps.requireAuth };

  const tags = ['folders'];
  const folder = { 200: folderDto };
  app.get(
    '/folder-service/list',
    {
      ...auth,
      schema: signedIn({
        summary: 'List folders: one folder, a search or the trash',
        tags,
        querystring: listFoldersQuery,
        response: { 200: z.array(folderDto) },
        errors: ['VALIDATION_FAILED'],
      }),
    },
    async (request, reply) =>
      sendCachedJson(answers, request, reply, 'folder-list', async (): Promise<FolderDto[]> => {
        return (await folders.list(authOf(request).accountId, parseInput(listFoldersQuery, request.query))).map(presentFolder);
      }),
  );

  app.get(
    '/folder-service/info/:id',
    {
      ...auth,
      schema: signedIn({
        summary: 'One folder',
        tags,
        params: idParams,
        response: folder,
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND'],
      }),
    },
    async (request): Promise<FolderDto> => {
      return presentFolder(await folders.get(authOf(request).accountId, parseInput(idParams, request.params).id));
    },
  );

  app.get(
    '/folder-service/move-folder-list',
    {
      ...auth,
      schema: signedIn({
        summary: 'Folders the given items may move into',
        description: 'Query keys may be written `folderIDs[]` as well.',
        tags,
        querystring: moveFolderListQuery,
        response: { 200: z.array(folderDto) },
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND'],
      }),
    },
    async (request): Promise<FolderDto[]> => {
      const query = parseInput(moveFolderListQuery, withoutBrackets(request.query));
      return (await folders.moveTargets(authOf(request).accountId, query)).map(presentFolder);
    },
  );

  app.post(
    '/folder-service/create',
    {
      ...auth,
      schema: signedIn({
        summary: 'Make a folder',
        tags,
        body: createFolderBody,
        response: { 201: folderDto },
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND', 'FOLDER_TOO_DEEP'],
      }),
    },
    async (request, reply): Promise<FolderDto> => {
      const body = parseInput(createFolderBody, request.body);
      void reply.status(201);
      return presentFolder(await folders.create(authOf(request).accountId, body.name, body.parent));
    },
  );

  app.patch(
    '/folder-service/rename',
    {
      ...auth,
      schema: signedIn({
        summary: 'Rename a folder',
        tags,
        body: renameBody,
        response: folder,
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND'],
      }),
    },
    async (request): Promise<FolderDto> => {
      const body = parseInput(renameBody, request.body);
      return presentFolder(await folders.rename(authOf(request).accountId, body.id, body.title));
    },
  );

  app.patch(
    '/folder-service/move',
    {
      ...auth,
      schema: signedIn({
        summary: 'Move a folder into another',
        tags,
        body: moveBody,
        response: folder,
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND', 'INVALID_MOVE', 'FOLDER_TOO_DEEP'],
      }),
    },
    async (request): Promise<FolderDto> => {
      const body = parseInput(moveBody, request.body);
      return presentFolder(await folders.move(authOf(request).accountId, body.id, body.parentID));
    },
  );

  const one = (body: unknown) => [{ type: 'folder' as const, id: parseInput(idBody, body).id }];

  app.patch(
    '/folder-service/trash',
    {
      ...auth,
      schema: signedIn({
        summary: 'Move a folder to the trash',
        tags,
        body: idBody,
        response: folder,
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND'],
      }),
    },
    async (request): Promise<FolderDto> => {
      const items = one(request.body);
      await trash.trash(authOf(request).accountId, items);
      return presentFolder(await folders.get(authOf(request).accountId, items[0]!.id));
    },
  );

  app.patch(
    '/folder-service/restore',
    {
      ...auth,
      schema: signedIn({
        summary: 'Restore a folder from the trash',
        tags,
        body: idBody,
        response: folder,
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND', 'FOLDER_TOO_DEEP'],
      }),
    },
    async (request): Promise<FolderDto> => {
      const items = one(request.body);
      await trash.restore(authOf(request).accountId, items);
      return presentFolder(await folders.get(authOf(request).accountId, items[0]!.id));
    },
  );

  app.delete(
    '/folder-service/remove',
    {
      ...auth,
      schema: signedIn({
        summary: 'Delete a folder and its contents for good',
        tags,
        body: idBody,
        response: { 200: messageAnswer },
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND'],
      }),
    },
    async (request) => {
      await trash.remove(authOf(request).accountId, one(request.body));
      return { message: 'Folder deleted' };
    },
  );
}
