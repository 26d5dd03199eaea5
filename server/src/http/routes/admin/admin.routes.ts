import {
  adminUserParams,
  adminUsersQuery,
  deleteAdminUserBody,
  updateAdminUserBody,
  updateServerSettingsBody,
  type AdminOverviewDto,
  type AdminPasswordResetDto,
  type AdminUserDto,
  type AdminUserPage,
  type ServerSettingsDto,
} from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { AdminOverviewService } from '../../../services/admin/admin-overview.service.js';
import type { AdminSettingsService } from '../../../services/admin/admin-settings.service.js';
import type { AdminUserService } from '../../../services/admin/admin-user.service.js';
import { messageAnswer, signedIn } from '../../api-schemas.js';
import { callerOf } from '../../caller.js';
import { adminAuth } from '../../plugins/admin-auth.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { adminOverviewDto, adminPasswordResetDto, adminUserDto, adminUserPage, serverSettingsDto } from './admin.schemas.js';

export interface AdminRoutesDeps {
  users: AdminUserService;
  settings: AdminSettingsService;
  overview: AdminOverviewService;
  requireAuth: preHandlerAsyncHookHandler;
}

/** The admin area: accounts, server settings and the overview; administrators only, counts and sizes only. */
export function adminRoutes(app: FastifyInstance, deps: AdminRoutesDeps): void {
  const { users, settings, overview } = deps;
  const admin = { preHandler: [deps.requireAuth, adminAuth(users)] };
  const tags = ['admin'];
  const schema = (s: Parameters<typeof signedIn>[0]) => signedIn({ ...s, tags, errors: ['ADMIN_ONLY', ...(s.errors ?? [])] });
  const idOf = (params: unknown) => parseInput(adminUserParams, params).id;

  app.get(
    '/admin-service/users',
    {
      ...admin,
      schema: schema({
        summary: 'Accounts, a page at a time',
        querystring: adminUsersQuery,
        response: { 200: adminUserPage },
        errors: ['VALIDATION_FAILED'],
      }),
    },
    async (request): Promise<AdminUserPage> => users.list(parseInput(adminUsersQuery, request.query)),
  );

  app.get(
    '/admin-service/users/:id',
    {
      ...admin,
      schema: schema({
        summary: 'One account',
        params: adminUserParams,
        response: { 200: adminUserDto },
        errors: ['VALIDATION_FAILED', 'USER_NOT_FOUND'],
      }),
    },
    async (request): Promise<AdminUserDto> => users.get(idOf(request.params)),
  );

  app.patch(
    '/admin-service/users/:id',
    {
      ...admin,
      schema: schema({
        summary: 'Disable or enable an account, set its quota or role',
        description: 'Disabling ends every session of the account at once; its app passwords and share links stop until it is enabled.',
        params: adminUserParams,
        body: updateAdminUserBody,
        response: { 200: adminUserDto },
        errors: ['VALIDATION_FAILED', 'USER_NOT_FOUND', 'LAST_ADMIN'],
      }),
    },
    async (request): Promise<AdminUserDto> => {
      const body = parseInput(updateAdminUserBody, request.body);
      return users.update(authOf(request).accountId, idOf(request.params), body, callerOf(request));
    },
  );

  app.delete(
    '/admin-service/users/:id',
    {
      ...admin,
      schema: schema({
        summary: 'Delete an account and everything it stores',
        description: 'Confirmed by the account’s e-mail. The account stops at once; its files are removed in the background.',
        params: adminUserParams,
        body: deleteAdminUserBody,
        response: { 202: messageAnswer },
        errors: ['VALIDATION_FAILED', 'CONFIRMATION_MISMATCH', 'USER_NOT_FOUND', 'LAST_ADMIN'],
      }),
    },
    async (request, reply) => {
      const body = parseInput(deleteAdminUserBody, request.body);
      await users.delete(authOf(request).accountId, idOf(request.params), body.confirmEmail, callerOf(request));
      void reply.status(202);
      return { message: 'Account deleted; its files are being removed' };
    },
  );

  app.post(
    '/admin-service/users/:id/password-reset',
    {
      ...admin,
      schema: schema({
        summary: 'Send the account a password reset',
        description: 'Without e-mail (or when sending fails) the answer carries the reset link to pass on.',
        params: adminUserParams,
        response: { 200: adminPasswordResetDto },
        errors: ['VALIDATION_FAILED', 'USER_NOT_FOUND', 'COOLDOWN'],
      }),
    },
    async (request): Promise<AdminPasswordResetDto> =>
      users.resetPassword(authOf(request).accountId, idOf(request.params), callerOf(request)),
  );

  app.post(
    '/admin-service/users/:id/two-factor-reset',
    {
      ...admin,
      schema: schema({
        summary: 'Turn two-factor sign-in off for an account locked out of it',
        description:
          'Its secret and recovery codes are removed; the account signs in with its password alone (or sets two-factor up ' +
          'again at its next sign-in when the server requires it). Recorded in both logs.',
        params: adminUserParams,
        response: { 200: adminUserDto },
        errors: ['VALIDATION_FAILED', 'USER_NOT_FOUND', 'TWO_FACTOR_NOT_ENABLED'],
      }),
    },
    async (request): Promise<AdminUserDto> => users.resetTwoFactor(authOf(request).accountId, idOf(request.params), callerOf(request)),
  );

  app.get(
    '/admin-service/settings',
    { ...admin, schema: schema({ summary: 'Server settings', response: { 200: serverSettingsDto } }) },
    async (): Promise<ServerSettingsDto> => settings.get(),
  );

  app.patch(
    '/admin-service/settings',
    {
      ...admin,
      schema: schema({
        summary: 'Change server settings',
        body: updateServerSettingsBody,
        response: { 200: serverSettingsDto },
        errors: ['VALIDATION_FAILED'],
      }),
    },
    async (request): Promise<ServerSettingsDto> =>
      settings.update(authOf(request).accountId, parseInput(updateServerSettingsBody, request.body), callerOf(request)),
  );

  app.get(
    '/admin-service/overview',
    { ...admin, schema: schema({ summary: 'The server at a glance: accounts, totals, disk, jobs', response: { 200: adminOverviewDto } }) },
    async (_request, reply): Promise<AdminOverviewDto> => {
      void reply.header('cache-control', 'no-store');
      return overview.get();
    },
  );
}
