import type { preHandlerAsyncHookHandler } from 'fastify';
import { ForbiddenError } from '../../domain/errors.js';
import type { AdminUserService } from '../../services/admin/admin-user.service.js';
import { authOf } from './auth.js';

/** After `requireAuth`: the signed-in account must be an active administrator. */
export function adminAuth(users: AdminUserService): preHandlerAsyncHookHandler {
  return async function requireAdmin(request) {
    if (!(await users.isAdmin(authOf(request).accountId))) throw new ForbiddenError('ADMIN_ONLY', 'Only an administrator can do this');
  };
}
