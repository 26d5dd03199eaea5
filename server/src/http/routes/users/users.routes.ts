import {
  LIMITS,
  changePasswordBody,
  createAccountBody,
  loginBody,
  resetPasswordBody,
  sendPasswordResetBody,
  verifyEmailBody,
  type CreateAccountResponse,
  type LoginResponse,
  type UserDetailedDto,
  type UserDto,
} from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { InvalidError } from '../../../domain/errors.js';
import { toUserDto, type AccountService } from '../../../services/accounts/account.service.js';
import type { SessionService } from '../../../services/accounts/session.service.js';
import { ACCESS_COOKIE, REFRESH_COOKIE, clearSessionCookies, setSessionCookies } from '../../cookies.js';
import { sendCachedJson, type AnswerCache } from '../../answer-cache.js';
import { authOf, browserIdOf } from '../../plugins/auth.js';
import { callerOf } from '../../caller.js';
import { parseInput } from '../../validation.js';

export interface UserRoutesDeps {
  accounts: AccountService;
  sessions: SessionService;
  /** Keeps the user answer while the account (its drive version) is unchanged. */
  answers: AnswerCache;
  requireAuth: preHandlerAsyncHookHandler;
  secureCookies: boolean;
}

export function userRoutes(app: FastifyInstance, deps: UserRoutesDeps): void {
  const { accounts, sessions, answers, requireAuth, secureCookies } = deps;
  const auth = { preHandler: requireAuth };
  const browserId = (request: Parameters<typeof browserIdOf>[0]): string => {
    const id = browserIdOf(request);
    if (!id) throw new InvalidError('Missing or invalid uuid header', undefined, 'MISSING_BROWSER_ID');
    return id;
  };

  app.post('/user-service/create', async (request, reply): Promise<CreateAccountResponse> => {
    const body = parseInput(createAccountBody, request.body);
    const { account, emailSent, tokens } = await accounts.create(body, browserId(request), callerOf(request));
    setSessionCookies(reply, tokens, secureCookies, LIMITS.accessTokenMs);
    void reply.status(201);
    return { user: toUserDto(account), emailSent };
  });

  app.post('/user-service/login', async (request, reply): Promise<LoginResponse> => {
    const body = parseInput(loginBody, request.body);
    const { account, tokens } = await accounts.login(body, browserId(request), callerOf(request));
    setSessionCookies(reply, tokens, secureCookies, LIMITS.accessTokenMs);
    return { user: toUserDto(account) };
  });

  app.get('/user-service/user', auth, async (request, reply) =>
    sendCachedJson(answers, request, reply, 'user', async (): Promise<UserDto> => toUserDto(await accounts.get(authOf(request).accountId))),
  );

  app.get('/user-service/user-detailed', auth, async (request): Promise<UserDetailedDto> => {
    const account = await accounts.get(authOf(request).accountId);
    return { ...toUserDto(account), createdAt: new Date(account.createdAt).toISOString() };
  });

  app.post('/user-service/get-token', async (request, reply) => {
    try {
      const tokens = await sessions.refresh(request.cookies[REFRESH_COOKIE], browserIdOf(request));
      setSessionCookies(reply, tokens, secureCookies, LIMITS.accessTokenMs);
      return { message: 'Token refreshed' };
    } catch (err) {
      clearSessionCookies(reply, secureCookies);
      throw err;
    }
  });

  // Logging out always succeeds and always clears the cookies, whatever state they are in.
  app.post('/user-service/logout', async (request, reply) => {
    const claims = await sessions.authenticate(request.cookies[ACCESS_COOKIE]).catch(() => null);
    const sessionId = claims?.sessionId ?? (await sessions.sessionOfRefreshToken(request.cookies[REFRESH_COOKIE]));
    if (sessionId) await sessions.end(sessionId);
    clearSessionCookies(reply, secureCookies);
    return { message: 'Logged out' };
  });

  app.post('/user-service/logout-all', auth, async (request, reply) => {
    await accounts.logoutAll(authOf(request).accountId, callerOf(request));
    clearSessionCookies(reply, secureCookies);
    return { message: 'Logged out of all sessions' };
  });

  app.patch('/user-service/change-password', auth, async (request) => {
    const body = parseInput(changePasswordBody, request.body);
    const { accountId, sessionId } = authOf(request);
    await accounts.changePassword(accountId, sessionId, body.oldPassword, body.newPassword, callerOf(request));
    return { message: 'Password changed' };
  });

  app.patch('/user-service/resend-verify-email', auth, async (request) => {
    await accounts.resendVerifyEmail(authOf(request).accountId, callerOf(request));
    return { message: 'Email verification resent' };
  });

  app.patch('/user-service/verify-email', async (request) => {
    await accounts.verifyEmail(parseInput(verifyEmailBody, request.body).emailToken);
    return { message: 'Email verified' };
  });

  app.patch('/user-service/send-password-reset', async (request) => {
    await accounts.sendPasswordReset(parseInput(sendPasswordResetBody, request.body).email, callerOf(request));
    return { message: 'Password reset sent' };
  });

  app.patch('/user-service/reset-password', async (request, reply) => {
    const body = parseInput(resetPasswordBody, request.body);
    await accounts.resetPassword(body.passwordToken, body.password, callerOf(request));
    clearSessionCookies(reply, secureCookies);
    return { message: 'Password reset' };
  });
}
