import {
  LIMITS,
  createFolderBody,
  idBody,
  listFoldersQuery,
  moveBody,
  moveFolderListQuery,
  renameBody,
  type FolderDto,
} from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { FolderService } from '../../../services/drive/folder.service.js';
import type { TrashService } from '../../../services/drive/trash.service.js';
import type { ItemShareService } from '../../../services/sharing/item-share.service.js';
import type { SharedDriveService } from '../../../services/sharing/shared-drive.service.js';
import { assertNotShareRoot, assertSameSpace, type ItemAccess } from '../../../services/sharing/item-access.js';
import { NotFoundError } from '../../../domain/errors.js';
import { jsonText, notKept, sendCachedJson, type AnswerCache } from '../../answer-cache.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { folderDto, messageAnswer, signedIn } from '../../api-schemas.js';
import { sharedAccessOf } from '../item-shares/item-shares.presenter.js';
import { presentFolder, presentFolderListJson, presentSharedFolder } from './folders.presenter.js';

export interface FolderRoutesDeps {
  folders: FolderService;
  trash: TrashService;
  /** Keeps list answers while the owner's drive is unchanged. */
  answers: AnswerCache;
  /** What the caller may do with an item: their own, or another account's reached through a share. */
  access: ItemAccess;
  sharedDrive: SharedDriveService;
  itemShares: ItemShareService;
  requireAuth: preHandlerAsyncHookHandler;
}

const SHARE_WRITE_ERRORS = ['SHARE_READ_ONLY', 'SHARE_ROOT_LOCKED'] as const;

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
  const { folders, trash, answers, access, sharedDrive, itemShares } = deps;
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
      sendCachedJson(answers, request, reply, 'folder-list', async () => {
        const callerId = authOf(request).accountId;
        const q = parseInput(listFoldersQuery, request.query);
        let rows;
        try {
          rows = await folders.list(callerId, q);
        } catch (err) {
          // Not the caller's folder: perhaps one shared with them (own lists pay nothing for the look).
          if (!(err instanceof NotFoundError) || q.search !== undefined || q.trashMode) throw err;
          const reach = await access.folder(callerId, q.parent, 'read');
          if (!reach.share) throw err;
          return notKept((await folders.list(reach.ownerId, q)).map((row) => presentSharedFolder(row, sharedAccessOf(reach))));
        }
        if (q.search === undefined || q.trashMode) return jsonText(presentFolderListJson(rows));
        const own: FolderDto[] = rows.map(presentFolder);
        const shared = await sharedDrive.search(callerId, q.search, q.limit ?? LIMITS.folderListMax, { files: false, folders: true });
        if (!shared.consulted) return own;
        return notKept([
          ...own,
          ...shared.folders.map(({ row, share }) =>
            presentSharedFolder(row, sharedAccessOf({ ownerId: share.owner.id, role: share.role, share })),
          ),
        ]);
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
      const { id } = parseInput(idParams, request.params);
      const reach = await access.folder(authOf(request).accountId, id, 'read');
      return presentSharedFolder(await folders.get(reach.ownerId, id), sharedAccessOf(reach));
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
      const callerId = authOf(request).accountId;
      const reach = query.search === undefined ? await access.parent(callerId, query.parent, 'read') : undefined;
      if (!reach?.share) return (await folders.moveTargets(callerId, query)).map(presentFolder);
      return (await folders.moveTargets(reach.ownerId, query)).map((row) => presentSharedFolder(row, sharedAccessOf(reach)));
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
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND', 'FOLDER_TOO_DEEP', 'SHARE_READ_ONLY'],
      }),
    },
    async (request, reply): Promise<FolderDto> => {
      const body = parseInput(createFolderBody, request.body);
      const reach = await access.parent(authOf(request).accountId, body.parent, 'write');
      const created = await folders.create(reach.ownerId, body.name, body.parent);
      void reply.status(201);
      return presentSharedFolder(created, sharedAccessOf(reach));
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
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND', ...SHARE_WRITE_ERRORS],
      }),
    },
    async (request): Promise<FolderDto> => {
      const body = parseInput(renameBody, request.body);
      const reach = await access.folder(authOf(request).accountId, body.id, 'write');
      assertNotShareRoot(reach, body.id);
      return presentSharedFolder(await folders.rename(reach.ownerId, body.id, body.title), sharedAccessOf(reach));
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
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND', 'INVALID_MOVE', 'FOLDER_TOO_DEEP', ...SHARE_WRITE_ERRORS, 'SHARE_MOVE_REFUSED'],
      }),
    },
    async (request): Promise<FolderDto> => {
      const body = parseInput(moveBody, request.body);
      const callerId = authOf(request).accountId;
      const reach = await access.folder(callerId, body.id, 'write');
      assertNotShareRoot(reach, body.id);
      assertSameSpace(reach, await access.parent(callerId, body.parentID, 'write'));
      return presentSharedFolder(await folders.move(reach.ownerId, body.id, body.parentID), sharedAccessOf(reach));
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
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND', ...SHARE_WRITE_ERRORS],
      }),
    },
    async (request): Promise<FolderDto> => {
      const items = one(request.body);
      const reach = await access.folder(authOf(request).accountId, items[0]!.id, 'write');
      assertNotShareRoot(reach, items[0]!.id);
      await trash.trash(reach.ownerId, items);
      return presentSharedFolder(await folders.get(reach.ownerId, items[0]!.id), sharedAccessOf(reach));
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
      const items = one(request.body);
      await trash.remove(authOf(request).accountId, items);
      await itemShares.forgetItems(items.map((item) => item.id));
      return { message: 'Folder deleted' };
    },
  );
}
