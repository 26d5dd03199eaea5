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
import type { ItemShareService } from '../../../services/sharing/item-share.service.js';
import type { LivePhotoService } from '../../../services/media/live-photo.service.js';
import type { SharedDriveService } from '../../../services/sharing/shared-drive.service.js';
import { assertNotShareRoot, assertSameSpace, type ItemAccess } from '../../../services/sharing/item-access.js';
import { NotFoundError } from '../../../domain/errors.js';
import { jsonText, notKept, sendCachedJson, type AnswerCache } from '../../answer-cache.js';
import { authOf } from '../../plugins/auth.js';
import { sendStoredFile } from '../../send-stored-file.js';
import { parseInput } from '../../validation.js';
import { binaryAnswer, fileDto, folderDto, messageAnswer, signedIn } from '../../api-schemas.js';
import { presentFolder, presentSharedFolder } from '../folders/folders.presenter.js';
import { sharedAccessOf } from '../item-shares/item-shares.presenter.js';
import { presentFile, presentFileListJson, presentSharedFile, withMotion } from './files.presenter.js';

export interface FileRoutesDeps {
  files: FileService;
  trash: TrashService;
  moves: MoveService;
  downloads: DownloadService;
  /** Keeps list answers while the owner's drive is unchanged. */
  answers: AnswerCache;
  /** What the caller may do with an item: their own, or another account's reached through a share. */
  access: ItemAccess;
  sharedDrive: SharedDriveService;
  itemShares: ItemShareService;
  /** The motion of the gallery's photos (Live Photos, motion photos). */
  livePhotos: Pick<LivePhotoService, 'motionOf'>;
  requireAuth: preHandlerAsyncHookHandler;
}

/** Changes through a share: a viewer may not, an editor may not touch the shared item itself, nor move across a share's edge. */
const SHARE_WRITE_ERRORS = ['SHARE_READ_ONLY', 'SHARE_ROOT_LOCKED'] as const;

const idParams = z.object({ id: z.string().min(1).max(64) });
/** Matches from shares added to the search dropdown. */
const SHARED_SUGGESTIONS = 10;

export function fileRoutes(app: FastifyInstance, deps: FileRoutesDeps): void {
  const { files, trash, moves, downloads, answers, access, sharedDrive, itemShares } = deps;
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
      sendCachedJson(answers, request, reply, 'file-list', async () => {
        const callerId = authOf(request).accountId;
        const q = parseInput(listFilesQuery, request.query);
        let rows;
        try {
          rows = await files.list(callerId, q);
        } catch (err) {
          // Not the caller's folder: perhaps one shared with them (own lists pay nothing for the look).
          if (!(err instanceof NotFoundError) || q.search !== undefined || q.mediaMode || q.trashMode) throw err;
          const reach = await access.folder(callerId, q.parent, 'read');
          if (!reach.share) throw err;
          return notKept((await files.list(reach.ownerId, q)).map((row) => presentSharedFile(row, sharedAccessOf(reach))));
        }
        if (q.mediaMode) {
          const photoIds = rows.filter((r) => r.mediaKind === 'photo').map((r) => r.id);
          const motion = await deps.livePhotos.motionOf(callerId, photoIds);
          return rows.map((row) => withMotion(presentFile(row), motion.get(row.id)));
        }
        if (q.search === undefined || q.trashMode || q.startAt) return jsonText(presentFileListJson(rows));
        const shared = await sharedDrive.search(callerId, q.search, q.limit ?? LIMITS.pageSize, { files: true, folders: false });
        if (!shared.consulted) return jsonText(presentFileListJson(rows));
        return notKept([
          ...rows.map(presentFile),
          ...shared.files.map(({ row, share }) =>
            presentSharedFile(row, sharedAccessOf({ ownerId: share.owner.id, role: share.role, share })),
          ),
        ]);
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
      sendCachedJson(answers, request, reply, 'file-quick-list', async () => {
        const { limit } = parseInput(quickListQuery, request.query);
        return jsonText(presentFileListJson(await files.quickList(authOf(request).accountId, Math.min(limit, LIMITS.mediaPageSize))));
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
      const callerId = authOf(request).accountId;
      const q = parseInput(suggestedListQuery, request.query);
      const found = await files.suggest(callerId, q);
      const answer = { folderList: found.folders.map(presentFolder), fileList: found.files.map(presentFile) };
      if (!q.search || q.trashMode) return answer;
      const shared = await sharedDrive.search(callerId, q.search, SHARED_SUGGESTIONS, { files: true, folders: !q.mediaMode });
      const viaShare = (share: (typeof shared.files)[number]['share']) =>
        sharedAccessOf({ ownerId: share.owner.id, role: share.role, share });
      answer.folderList.push(...shared.folders.map(({ row, share }) => presentSharedFolder(row, viaShare(share))));
      answer.fileList.push(...shared.files.map(({ row, share }) => presentSharedFile(row, viaShare(share))));
      return answer;
    },
  );

  app.get(
    '/file-service/info/:id',
    {
      ...auth,
      schema: signedIn({ summary: 'One file', tags, params: idParams, response: file, errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND'] }),
    },
    async (request): Promise<FileDto> => {
      const { id } = parseInput(idParams, request.params);
      const reach = await access.file(authOf(request).accountId, id, 'read');
      return presentSharedFile(await files.get(reach.ownerId, id), sharedAccessOf(reach));
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
      const { id } = parseInput(idParams, request.params);
      const reach = await access.file(authOf(request).accountId, id, 'read');
      const asset = await downloads.ownFile(reach.ownerId, id);
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
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND', ...SHARE_WRITE_ERRORS],
      }),
    },
    async (request): Promise<FileDto> => {
      const body = parseInput(renameBody, request.body);
      const reach = await access.file(authOf(request).accountId, body.id, 'write');
      assertNotShareRoot(reach, body.id);
      return presentSharedFile(await files.rename(reach.ownerId, body.id, body.title), sharedAccessOf(reach));
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
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND', 'FOLDER_NOT_FOUND', ...SHARE_WRITE_ERRORS, 'SHARE_MOVE_REFUSED'],
      }),
    },
    async (request): Promise<FileDto> => {
      const body = parseInput(moveBody, request.body);
      const callerId = authOf(request).accountId;
      const reach = await access.file(callerId, body.id, 'write');
      assertNotShareRoot(reach, body.id);
      assertSameSpace(reach, await access.parent(callerId, body.parentID, 'write'));
      return presentSharedFile(await files.move(reach.ownerId, body.id, body.parentID), sharedAccessOf(reach));
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
        errors: [
          'VALIDATION_FAILED',
          'NOT_FOUND',
          'FILE_NOT_FOUND',
          'FOLDER_NOT_FOUND',
          'INVALID_MOVE',
          'FOLDER_TOO_DEEP',
          ...SHARE_WRITE_ERRORS,
          'SHARE_MOVE_REFUSED',
        ],
      }),
    },
    async (request) => {
      const body = parseInput(moveItemsBody, request.body);
      const callerId = authOf(request).accountId;
      const reach = await access.items(callerId, body.items, 'write');
      for (const item of body.items) assertNotShareRoot(reach, item.id);
      assertSameSpace(reach, await access.parent(callerId, body.parentID, 'write'));
      await moves.moveMany(reach.ownerId, body.items, body.parentID);
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
        errors: ['VALIDATION_FAILED', 'FILE_NOT_FOUND', ...SHARE_WRITE_ERRORS],
      }),
    },
    async (request): Promise<FileDto> => {
      const items = single('file')(request.body);
      const reach = await access.file(authOf(request).accountId, items[0]!.id, 'write');
      assertNotShareRoot(reach, items[0]!.id);
      await trash.trash(reach.ownerId, items);
      return presentSharedFile(await files.get(reach.ownerId, items[0]!.id), sharedAccessOf(reach));
    },
  );
  app.patch(
    '/file-service/trash-multi',
    {
      ...auth,
      schema: signedIn({
        summary: 'Move files and folders to the trash',
        tags,
        body: itemsBody,
        response: message,
        errors: [...many, ...SHARE_WRITE_ERRORS, 'SHARE_MOVE_REFUSED'],
      }),
    },
    async (request) => {
      const items = multi(request.body);
      const reach = await access.items(authOf(request).accountId, items, 'write');
      for (const item of items) assertNotShareRoot(reach, item.id);
      await trash.trash(reach.ownerId, items);
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
      const items = single('file')(request.body);
      await trash.remove(authOf(request).accountId, items);
      await itemShares.forgetItems(items.map((item) => item.id));
      return { message: 'File deleted' };
    },
  );
  app.delete(
    '/file-service/remove-multi',
    { ...auth, schema: signedIn({ summary: 'Delete files and folders for good', tags, body: itemsBody, response: message, errors: many }) },
    async (request) => {
      const items = multi(request.body);
      await trash.remove(authOf(request).accountId, items);
      await itemShares.forgetItems(items.map((item) => item.id));
      return { message: 'Items deleted' };
    },
  );
}
