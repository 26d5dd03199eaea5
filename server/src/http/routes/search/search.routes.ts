import { semanticSearchBody, type SemanticSearchResponse } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { SemanticSearchService } from '../../../search/search.service.js';
import type { ShareOrigin } from '../../../services/sharing/item-access.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { fileDto, folderDto, signedIn } from '../../api-schemas.js';
import { z } from 'zod';
import type { SharedDriveService } from '../../../services/sharing/shared-drive.service.js';
import { presentFile, presentSharedFile } from '../files/files.presenter.js';
import { presentFolder, presentSharedFolder } from '../folders/folders.presenter.js';
import { sharedAccessOf } from '../item-shares/item-shares.presenter.js';

export interface SearchRoutesDeps {
  search: SemanticSearchService;
  /** Results also come from what other accounts share with the caller, marked `shared`. */
  sharedDrive: SharedDriveService;
  requireAuth: preHandlerAsyncHookHandler;
}

export function searchRoutes(app: FastifyInstance, deps: SearchRoutesDeps): void {
  // The body's userId is accepted for compatibility and ignored: results are always the caller's.
  const schema = signedIn({
    summary: 'Search files and folders by meaning, content and name',
    tags: ['search'],
    body: semanticSearchBody,
    response: { 200: z.object({ files: z.array(fileDto), folders: z.array(folderDto) }) },
    errors: ['VALIDATION_FAILED', 'RATE_LIMITED'],
  });
  app.post('/file-service/semantic-search', { preHandler: deps.requireAuth, schema }, async (request): Promise<SemanticSearchResponse> => {
    const { query } = parseInput(semanticSearchBody, request.body);
    const callerId = authOf(request).accountId;
    const owners = await deps.sharedDrive.ownersSharingWith(callerId);
    const [own, ...others] = await deps.search.searchAs(callerId, [callerId, ...owners], query);
    const answer = { files: own!.files.map(presentFile), folders: own!.folders.map(presentFolder) };
    for (const found of others) {
      const kept = await deps.sharedDrive.keepShared(callerId, found);
      const viaShare = (share: ShareOrigin) => sharedAccessOf({ ownerId: share.owner.id, role: share.role, share });
      answer.files.push(...kept.files.map(({ row, share }) => presentSharedFile(row, viaShare(share))));
      answer.folders.push(...kept.folders.map(({ row, share }) => presentSharedFolder(row, viaShare(share))));
    }
    return answer;
  });
}
