import {
  LIMITS,
  SIGNUP_MODES,
  changePasswordBody,
  createAccountBody,
  loginBody,
  resetPasswordBody,
  sendPasswordResetBody,
  verifyEmailBody,
  type CreateAccountResponse,
  type LoginResponse,
  type SecondFactorChallengeDto,
  type SignupMode,
  type UserDetailedDto,
  type UserDto,
} from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { InvalidError } from '../../../domain/errors.js';
import { toUserDto, type AccountService } from '../../../services/accounts/account.service.js';
import type { SessionService } from '../../../services/accounts/session.service.js';
import type { SignupGate } from '../../../services/accounts/signup-gate.js';
import { ACCESS_COOKIE, REFRESH_COOKIE, clearSessionCookies, setSessionCookies } from '../../cookies.js';
import { sendCachedJson, type AnswerCache } from '../../answer-cache.js';
import { authOf, browserIdOf } from '../../plugins/auth.js';
import { callerOf } from '../../caller.js';
import { parseInput } from '../../validation.js';
import { messageAnswer, secondFactorChallengeDto, signedIn, userDetailedDto, userDto } from '../../api-schemas.js';
import { z } from 'zod';

export interface UserRoutesDeps {
  accounts: AccountService;
  sessions: SessionService;
  signups: SignupGate;
  /** Keeps the user answer while the account (its drive version) is unchanged. */
  answers: AnswerCache;
  requireAuth: preHandlerAsyncHookHandler;
  secureCookies: boolean;
}

export function userRoutes(app: FastifyInstance, deps: UserRoutesDeps): void {
  const { accounts, sessions, signups, answers, requireAuth, secureCookies } = deps;
  const auth = { preHandler: requireAuth };
  const browserId = (request: Parameters<typeof browserIdOf>[0]): string => {
    const id = browserIdOf(request);
    if (!id) throw new InvalidError('Missing or invalid uuid header', undefined, 'MISSING_BROWSER_ID');
    return id;
  };

  const tags = ['users'];
  const message = { 200: messageAnswer };
  app.post(
    '/user-service/create',
    {
      schema: {
        summary: 'Sign up, and sign in as the new account',
        description:
          'Sets the session cookies, as login does. With `invitation` (the token of an invitation link) in any sign-up mode, ' +
          'for the invited e-mail only; the account starts verified. The first account of a server becomes its administrator.',
        tags,
        body: createAccountBody,
        response: { 201: z.object({ user: userDto, emailSent: z.boolean() }) },
        errors: [
          'VALIDATION_FAILED',
          'INVITATION_EMAIL_MISMATCH',
          'EMAIL_EXISTS',
          'SIGNUP_CLOSED',
          'SIGNUP_INVITE_ONLY',
          'INVITATION_NOT_FOUND',
          'RATE_LIMITED',
        ],
      },
    },
    async (request, reply): Promise<CreateAccountResponse> => {
      const body = parseInput(createAccountBody, request.body);
      const { account, emailSent, tokens } = await accounts.create(body, browserId(request), callerOf(request));
      setSessionCookies(reply, tokens, secureCookies, LIMITS.accessTokenMs);
      void reply.status(201);
      return { user: toUserDto(account), emailSent };
    },
  );

  app.get(
    '/user-service/signup-mode',
    {
      schema: {
        summary: 'Who may sign up: anyone, only someone invited, or nobody',
        description: 'For the sign-in screen; no account needed. In invite mode a server without accounts takes its first one.',
        tags,
        response: { 200: z.object({ signup: z.enum(SIGNUP_MODES) }) },
      },
    },
    async (): Promise<{ signup: SignupMode }> => ({ signup: await signups.modeForNewcomers() }),
  );

  app.post(
    '/user-service/login',
    {
      schema: {
        summary: 'Sign in',
        description:
          'Sets the `access-token` and `refresh-token` cookies that authenticate later calls. For an account with two-factor ' +
          'sign-in on, answers 202 with a ticket for `POST /user-service/login/second-factor` instead, and sets no cookie; ' +
          "with `methods: ['setup']` when the server requires two-factor and the account has none yet " +
          '(see `/two-factor-service/setup-with-ticket`).',
        tags,
        body: loginBody,
        response: { 200: z.object({ user: userDto }), 202: secondFactorChallengeDto },
        errors: ['VALIDATION_FAILED', 'INVALID_CREDENTIALS', 'LOGIN_THROTTLED', 'RATE_LIMITED', 'ACCOUNT_DISABLED', 'TWO_FACTOR_REQUIRED'],
      },
    },
    async (request, reply): Promise<LoginResponse | SecondFactorChallengeDto> => {
      const body = parseInput(loginBody, request.body);
      const result = await accounts.login(body, browserId(request), callerOf(request));
      if (result.secondFactor) {
        void reply.status(202).header('cache-control', 'no-store');
        return { secondFactor: result.secondFactor };
      }
      setSessionCookies(reply, result.tokens, secureCookies, LIMITS.accessTokenMs);
      return { user: toUserDto(result.account) };
    },
  );

  app.get(
    '/user-service/user',
    { ...auth, schema: signedIn({ summary: 'The signed-in account', tags, response: { 200: userDto } }) },
    async (request, reply) =>
      sendCachedJson(answers, request, reply, 'user', async (): Promise<UserDto> =>
        toUserDto(await accounts.get(authOf(request).accountId)),
      ),
  );

  app.get(
    '/user-service/user-detailed',
    { ...auth, schema: signedIn({ summary: 'The signed-in account, with its creation date', tags, response: { 200: userDetailedDto } }) },
    async (request): Promise<UserDetailedDto> => {
      const account = await accounts.get(authOf(request).accountId);
      return { ...toUserDto(account), createdAt: new Date(account.createdAt).toISOString(), hasPassword: account.hasPassword !== 0 };
    },
  );

  app.post(
    '/user-service/get-token',
    {
      schema: {
        summary: 'Refresh the session',
        description: 'Trades the `refresh-token` cookie for new session cookies; a refused token clears them.',
        tags,
        response: message,
        errors: ['UNAUTHENTICATED', 'INVALID_TOKEN'],
      },
    },
    async (request, reply) => {
      try {
        const tokens = await sessions.refresh(request.cookies[REFRESH_COOKIE], browserIdOf(request));
        setSessionCookies(reply, tokens, secureCookies, LIMITS.accessTokenMs);
        return { message: 'Token refreshed' };
      } catch (err) {
        clearSessionCookies(reply, secureCookies);
        throw err;
      }
    },
  );

  // Logging out always succeeds and always clears the cookies, whatever state they are in.
  app.post(
    '/user-service/logout',
    {
      schema: { summary: 'Sign out this session', description: 'Always succeeds and clears the session cookies.', tags, response: message },
    },
    async (request, reply) => {
      const claims = await sessions.authenticate(request.cookies[ACCESS_COOKIE]).catch(() => null);
      const sessionId = claims?.sessionId ?? (await sessions.sessionOfRefreshToken(request.cookies[REFRESH_COOKIE]));
      if (sessionId) await sessions.end(sessionId);
      clearSessionCookies(reply, secureCookies);
      return { message: 'Logged out' };
    },
  );

  app.post(
    '/user-service/logout-all',
    { ...auth, schema: signedIn({ summary: 'Sign out every session of the account', tags, response: message }) },
    async (request, reply) => {
      await accounts.logoutAll(authOf(request).accountId, callerOf(request));
      clearSessionCookies(reply, secureCookies);
      return { message: 'Logged out of all sessions' };
    },
  );

  app.patch(
    '/user-service/change-password',
    {
      ...auth,
      schema: signedIn({
        summary: 'Change the password',
        description: 'Ends every other session of the account.',
        tags,
        body: changePasswordBody,
        response: message,
        errors: ['VALIDATION_FAILED', 'WRONG_PASSWORD', 'LOGIN_THROTTLED'],
      }),
    },
    async (request) => {
      const body = parseInput(changePasswordBody, request.body);
      const { accountId, sessionId } = authOf(request);
      await accounts.changePassword(accountId, sessionId, body.oldPassword, body.newPassword, callerOf(request));
      return { message: 'Password changed' };
    },
  );

  app.patch(
    '/user-service/resend-verify-email',
    {
      ...auth,
      schema: signedIn({
        summary: 'Send the e-mail verification again',
        tags,
        response: message,
        errors: ['CONFLICT', 'EMAIL_DISABLED', 'COOLDOWN'],
      }),
    },
    async (request) => {
      await accounts.resendVerifyEmail(authOf(request).accountId, callerOf(request));
      return { message: 'Email verification resent' };
    },
  );

  app.patch(
    '/user-service/verify-email',
    {
      schema: {
        summary: 'Verify the e-mail address with the token it was sent',
        tags,
        body: verifyEmailBody,
        response: message,
        errors: ['VALIDATION_FAILED', 'INVALID_TOKEN', 'CONFLICT'],
      },
    },
    async (request) => {
      await accounts.verifyEmail(parseInput(verifyEmailBody, request.body).emailToken);
      return { message: 'Email verified' };
    },
  );

  app.patch(
    '/user-service/send-password-reset',
    {
      schema: {
        summary: 'E-mail a password-reset link',
        tags,
        body: sendPasswordResetBody,
        response: message,
        errors: ['VALIDATION_FAILED', 'USER_NOT_FOUND', 'EMAIL_DISABLED', 'COOLDOWN', 'RATE_LIMITED'],
      },
    },
    async (request) => {
      await accounts.sendPasswordReset(parseInput(sendPasswordResetBody, request.body).email, callerOf(request));
      return { message: 'Password reset sent' };
    },
  );

  app.patch(
    '/user-service/reset-password',
    {
      schema: {
        summary: 'Set a new password with a reset token',
        description: 'Ends every session of the account.',
        tags,
        body: resetPasswordBody,
        response: message,
        errors: ['VALIDATION_FAILED', 'INVALID_TOKEN'],
      },
    },
    async (request, reply) => {
      const body = parseInput(resetPasswordBody, request.body);
      await accounts.resetPassword(body.passwordToken, body.password, callerOf(request));
      clearSessionCookies(reply, secureCookies);
      return { message: 'Password reset' };
    },
  );
}
