import { semanticSearchBody, type SemanticSearchResponse } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { SemanticSearchService } from '../../../search/search.service.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { fileDto, folderDto, signedIn } from '../../api-schemas.js';
import { z } from 'zod';
import { presentFile } from '../files/files.presenter.js';
import { presentFolder } from '../folders/folders.presenter.js';

export interface SearchRoutesDeps {
  search: SemanticSearchService;
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
    const found = await deps.search.search(authOf(request).accountId, query);
    return { files: found.files.map(presentFile), folders: found.folders.map(presentFolder) };
  });
}
