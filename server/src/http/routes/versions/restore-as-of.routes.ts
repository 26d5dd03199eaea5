import { restoreAsOfRequest, type RestoreAsOfResultDto } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { RestoreAsOfService } from '../../../services/versions/restore-as-of.service.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { signedIn } from '../../api-schemas.js';

export interface RestoreAsOfRoutesDeps {
  restoreAsOf: RestoreAsOfService;
  requireAuth: preHandlerAsyncHookHandler;
}

const count = z.number().int().min(0);
const restoreAsOfResult = z.object({
  revertedFiles: count,
  restoredFromTrash: count,
  movedToTrash: count,
  notRecoverable: count,
});

export function restoreAsOfRoutes(app: FastifyInstance, deps: RestoreAsOfRoutesDeps): void {
  app.post(
    '/folder-service/restore-as-of',
    {
      preHandler: deps.requireAuth,
      schema: signedIn({
        summary: 'Put a folder, or the whole drive, back as it was at a time',
        description:
          'Every file under the folder (`/`: the whole drive) gets back the content it had at `at`; the content it replaces ' +
          'is kept as a version. Files and folders trashed after `at` come back; files first stored after `at` go to the ' +
          'trash. Nothing is deleted, and running it again changes nothing. Files whose content of then retention no longer ' +
          'keeps are left as they are (`notRecoverable`). The owner only: a shared folder is not found for its recipients. ' +
          '`at` must not be in the future.',
        tags: ['folders'],
        body: restoreAsOfRequest,
        response: { 200: restoreAsOfResult },
        errors: ['VALIDATION_FAILED', 'FOLDER_NOT_FOUND'],
      }),
    },
    async (request): Promise<RestoreAsOfResultDto> => {
      const body = parseInput(restoreAsOfRequest, request.body);
      const callerId = authOf(request).accountId;
      return deps.restoreAsOf.restore(callerId, body.id, Date.parse(body.at), { accountId: callerId, via: null });
    },
  );
}
