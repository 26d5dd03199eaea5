import type { StorageUsageDto } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { QuotaPolicy } from '../../../services/admin/quota-policy.js';
import { signedIn } from '../../api-schemas.js';
import { authOf } from '../../plugins/auth.js';
import { storageUsageDto } from './admin.schemas.js';

/** Settings' storage bar: the signed-in account's bytes against the quota in force. */
export function storageUsageRoutes(app: FastifyInstance, deps: { quota: QuotaPolicy; requireAuth: preHandlerAsyncHookHandler }): void {
  app.get(
    '/user-service/storage',
    {
      preHandler: deps.requireAuth,
      schema: signedIn({
        summary: "The account's storage: files and trash against its quota",
        tags: ['users'],
        response: { 200: storageUsageDto },
      }),
    },
    async (request): Promise<StorageUsageDto> => deps.quota.usageOf(authOf(request).accountId),
  );
}
