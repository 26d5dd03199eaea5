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
import { binaryAnswer, fileDto, folderDto, messageAnswer, signedIn } from '../../api-schemas.js';
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

  const tags = ['files'];
  const message = { 200: messageAnswer };
  const file = { 200: fileDto };
  app.get(
    '/file-service/list',
    {
      ...auth,
      schema: signedIn({
        summary: 'List files: one folder, the whole drive, a search or the trash, a page at a time',
        tags,
        querystring: listFilesQuery,
        response: { 200: z.array(fileDto) },
        errors: ['VALIDATION_FAILED'],
      }),
    },
    async (request, reply) =>
      sendCachedJson(answers, request, reply, 'file-list', async (): Promise<FileDto[]> => {
        const rows = await files.list(authOf(request).accountId, parseInput(listFilesQuery, request.query));
        return rows.map(presentFile);
      }),
  );

  app.get(
    '/file-service/quick-list',
    {
      ...auth,
      schema: signedIn({
        summary: 'The most recent files',
        tags,
        querystring: quickListQuery,
        response: { 200: z.array(fileDto) },
        errors: ['VALIDATION_FAILED'],
      }),
    },
    async (request, reply) =>
      sendCachedJson(answers, request, reply, 'file-quick-list', async (): Promise<FileDto[]> => {
        const { limit } = parseInput(quickListQuery, request.query);
        return (await files.quickList(authOf(request).accountId, Math.min(limit, LIMITS.mediaPageSize))).map(presentFile);
      }),
  );

  app.get(
    '/file-service/suggested-list',
    {
      ...auth,
      schema: signedIn({
        summary: 'Files and folders whose names match a search',
        tags,
        querystring: suggestedListQuery,
        response: { 200: z.object({ folderList: z.array(folderDto), fileList: z.array(fileDto) }) },
        errors: ['VALIDATION_FAILED'],
      }),
    },
    async (request): Promise<SuggestedListResponse> => {
      const found = await files.suggest(authOf(request).accountId, parseInput(suggestedListQuery, request.query));
      return { folderList: found.folders.map(presentFolder), fileList: found.files.map(presentFile) };
    },
  );

  app.get(
    '/file-service/info/:id',
    {
      ...auth,
      schema: signedIn({ summary: 'One file', tags, params: idParams, response: file, errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND'] }),
    },
    async (request): Promise<FileDto> => {
      return presentFile(await files.get(authOf(request).accountId, parseInput(idParams, request.params).id));
    },
  );

  app.get(
    '/file-service/download/:id',
    {
      ...auth,
      schema: signedIn({
        summary: "Download a file's bytes",
        description: 'Supports `Range` (206) and conditional requests (`ETag`, 304).',
        tags,
        params: idParams,
        response: { 200: binaryAnswer('The file'), 206: binaryAnswer('The requested range') },
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
      }),
    },
    async (request, reply) => {
      const asset = await downloads.ownFile(authOf(request).accountId, parseInput(idParams, request.params).id);
      return sendStoredFile(request, reply, asset, (range) => asset.open(range), { disposition: 'attachment' });
    },
  );

  app.patch(
    '/file-service/rename',
    {
      ...auth,
      schema: signedIn({
        summary: 'Rename a file',
        tags,
        body: renameBody,
        response: file,
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND'],
      }),
    },
    async (request): Promise<FileDto> => {
      const body = parseInput(renameBody, request.body);
      return presentFile(await files.rename(authOf(request).accountId, body.id, body.title));
    },
  );

  app.patch(
    '/file-service/move',
    {
      ...auth,
      schema: signedIn({
        summary: 'Move a file into a folder',
        tags,
        body: moveBody,
        response: file,
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND', 'FOLDER_NOT_FOUND'],
      }),
    },
    async (request): Promise<FileDto> => {
      const body = parseInput(moveBody, request.body);
      return presentFile(await files.move(authOf(request).accountId, body.id, body.parentID));
    },
  );

  app.patch(
    '/file-service/move-multi',
    {
      ...auth,
      schema: signedIn({
        summary: 'Move files and folders into a folder',
        tags,
        body: moveItemsBody,
        response: message,
        errors: ['VALIDATION_FAILED', 'NOT_FOUND', 'FOLDER_NOT_FOUND', 'INVALID_MOVE', 'FOLDER_TOO_DEEP'],
      }),
    },
    async (request) => {
      const body = parseInput(moveItemsBody, request.body);
      await moves.moveMany(authOf(request).accountId, body.items, body.parentID);
      return { message: 'Items moved' };
    },
  );

  const single = (type: 'file') => (body: unknown) => [{ type, id: parseInput(idBody, body).id }];
  const multi = (body: unknown) => parseInput(itemsBody, body).items;

  const many = ['VALIDATION_FAILED', 'NOT_FOUND', 'FILE_NOT_FOUND', 'FOLDER_NOT_FOUND'] as const;
  app.patch(
    '/file-service/trash',
    {
      ...auth,
      schema: signedIn({
        summary: 'Move a file to the trash',
        tags,
        body: idBody,
        response: file,
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND'],
      }),
    },
    async (request): Promise<FileDto> => {
      const items = single('file')(request.body);
      await trash.trash(authOf(request).accountId, items);
      return presentFile(await files.get(authOf(request).accountId, items[0]!.id));
    },
  );
  app.patch(
    '/file-service/trash-multi',
    {
      ...auth,
      schema: signedIn({ summary: 'Move files and folders to the trash', tags, body: itemsBody, response: message, errors: many }),
    },
    async (request) => {
      await trash.trash(authOf(request).accountId, multi(request.body));
      return { message: 'Items trashed' };
    },
  );
  app.patch(
    '/file-service/restore',
    {
      ...auth,
      schema: signedIn({
        summary: 'Restore a file from the trash',
        tags,
        body: idBody,
        response: file,
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND', 'FOLDER_TOO_DEEP'],
      }),
    },
    async (request): Promise<FileDto> => {
      const items = single('file')(request.body);
      await trash.restore(authOf(request).accountId, items);
      return presentFile(await files.get(authOf(request).accountId, items[0]!.id));
    },
  );
  app.patch(
    '/file-service/restore-multi',
    {
      ...auth,
      schema: signedIn({
        summary: 'Restore files and folders from the trash',
        tags,
        body: itemsBody,
        response: message,
        errors: [...many, 'FOLDER_TOO_DEEP'],
      }),
    },
    async (request) => {
      await trash.restore(authOf(request).accountId, multi(request.body));
      return { message: 'Items restored' };
    },
  );
  app.delete(
    '/file-service/remove',
    {
      ...auth,
      schema: signedIn({
        summary: 'Delete a file for good',
        tags,
        body: idBody,
        response: message,
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND'],
      }),
    },
    async (request) => {
      await trash.remove(authOf(request).accountId, single('file')(request.body));
      return { message: 'File deleted' };
    },
  );
  app.delete(
    '/file-service/remove-multi',
    { ...auth, schema: signedIn({ summary: 'Delete files and folders for good', tags, body: itemsBody, response: message, errors: many }) },
    async (request) => {
      await trash.remove(authOf(request).accountId, multi(request.body));
      return { message: 'Items deleted' };
    },
  );
}
