import {
  LIMITS,
  enableWithTicketBody,
  secondFactorBody,
  setupTicketBody,
  twoFactorAnyCodeBody,
  twoFactorCodeBody,
  type LoginResponse,
  type RecoveryCodesDto,
  type TwoFactorSetupDto,
  type TwoFactorStatusDto,
} from '@nimbus/common';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { InvalidError } from '../../../domain/errors.js';
import { toUserDto, type AccountService } from '../../../services/accounts/account.service.js';
import type { TwoFactorService } from '../../../services/accounts/two-factor.service.js';
import { setSessionCookies } from '../../cookies.js';
import { authOf, browserIdOf } from '../../plugins/auth.js';
import { callerOf } from '../../caller.js';
import { parseInput } from '../../validation.js';
import { messageAnswer, signedIn, userDto } from '../../api-schemas.js';

export interface TwoFactorRoutesDeps {
  accounts: AccountService;
  twoFactor: TwoFactorService;
  requireAuth: preHandlerAsyncHookHandler;
  secureCookies: boolean;
}

const setupDto = z.object({
  secret: z.string().describe('Base32, for typing into the app'),
  otpauthUrl: z.string().describe('otpauth://totp/… for the QR code'),
}) satisfies z.ZodType<TwoFactorSetupDto>;
const recoveryCodesDto = z.object({
  recoveryCodes: z.array(z.string()).describe('Ten single-use codes, shown this once'),
}) satisfies z.ZodType<RecoveryCodesDto>;
const statusDto = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number(),
  required: z.boolean(),
}) satisfies z.ZodType<TwoFactorStatusDto>;

function browserId(request: FastifyRequest): string {
  const id = browserIdOf(request);
  if (!id) throw new InvalidError('Missing or invalid uuid header', undefined, 'MISSING_BROWSER_ID');
  return id;
}

/** Two-factor codes (Settings → Security) and the second step of a password sign-in. */
export function twoFactorRoutes(app: FastifyInstance, deps: TwoFactorRoutesDeps): void {
  const { accounts, twoFactor, secureCookies } = deps;
  const auth = { preHandler: deps.requireAuth };
  const tags = ['two-factor'];
  // Secrets and recovery codes are in these answers only: nothing may keep a copy of them.
  const noStore = { 'cache-control': 'no-store' };

  app.post(
    '/user-service/login/second-factor',
    {
      schema: {
        summary: 'Sign in, second step: a code from the app or a recovery code',
        description:
          'With the ticket of a 202 answer of `POST /user-service/login`, from the same browser, within five minutes; sets the ' +
          'session cookies as login does. A wrong code leaves the ticket usable; wrong codes are throttled like passwords.',
        tags: ['users', ...tags],
        body: secondFactorBody,
        response: { 200: z.object({ user: userDto }) },
        errors: ['VALIDATION_FAILED', 'INVALID_TICKET', 'INVALID_CODE', 'LOGIN_THROTTLED', 'ACCOUNT_DISABLED'],
      },
    },
    async (request, reply): Promise<LoginResponse> => {
      const body = parseInput(secondFactorBody, request.body);
      const { account, tokens } = await accounts.passSecondFactor(body, browserId(request), callerOf(request));
      setSessionCookies(reply, tokens, secureCookies, LIMITS.accessTokenMs);
      return { user: toUserDto(account) };
    },
  );

  app.get(
    '/two-factor-service/status',
    {
      ...auth,
      schema: signedIn({ summary: 'Whether two-factor sign-in is on, and recovery codes left', tags, response: { 200: statusDto } }),
    },
    async (request): Promise<TwoFactorStatusDto> => twoFactor.status(authOf(request).accountId),
  );

  app.post(
    '/two-factor-service/setup',
    {
      ...auth,
      schema: signedIn({
        summary: 'Start turning two-factor on: a new secret',
        description: 'Pending until confirmed by `/two-factor-service/enable`; calling again replaces a pending secret.',
        tags,
        response: { 200: setupDto },
        errors: ['TWO_FACTOR_ENABLED'],
      }),
    },
    async (request, reply): Promise<TwoFactorSetupDto> => {
      void reply.headers(noStore);
      return twoFactor.setup(authOf(request).accountId);
    },
  );

  app.post(
    '/two-factor-service/enable',
    {
      ...auth,
      schema: signedIn({
        summary: 'Turn two-factor on with a first code; answers the recovery codes',
        tags,
        body: twoFactorCodeBody,
        response: { 200: recoveryCodesDto },
        errors: ['VALIDATION_FAILED', 'INVALID_CODE', 'TWO_FACTOR_NOT_ENABLED', 'LOGIN_THROTTLED'],
      }),
    },
    async (request, reply): Promise<RecoveryCodesDto> => {
      const { code } = parseInput(twoFactorCodeBody, request.body);
      void reply.headers(noStore);
      return { recoveryCodes: await twoFactor.enable(authOf(request).accountId, code, callerOf(request)) };
    },
  );

  app.post(
    '/two-factor-service/recovery-codes',
    {
      ...auth,
      schema: signedIn({
        summary: 'Ten new recovery codes for a code from the app; the old ones stop working',
        tags,
        body: twoFactorCodeBody,
        response: { 200: recoveryCodesDto },
        errors: ['VALIDATION_FAILED', 'INVALID_CODE', 'TWO_FACTOR_NOT_ENABLED', 'LOGIN_THROTTLED'],
      }),
    },
    async (request, reply): Promise<RecoveryCodesDto> => {
      const { code } = parseInput(twoFactorCodeBody, request.body);
      void reply.headers(noStore);
      return { recoveryCodes: await twoFactor.renewRecoveryCodes(authOf(request).accountId, code, callerOf(request)) };
    },
  );

  app.post(
    '/two-factor-service/disable',
    {
      ...auth,
      schema: signedIn({
        summary: 'Turn two-factor off, for a code from the app or a recovery code',
        tags,
        body: twoFactorAnyCodeBody,
        response: { 200: messageAnswer },
        errors: ['VALIDATION_FAILED', 'INVALID_CODE', 'TWO_FACTOR_NOT_ENABLED', 'TWO_FACTOR_REQUIRED', 'LOGIN_THROTTLED'],
      }),
    },
    async (request) => {
      const { code } = parseInput(twoFactorAnyCodeBody, request.body);
      await twoFactor.disable(authOf(request).accountId, code, callerOf(request));
      return { message: 'Two-factor sign-in is off' };
    },
  );

  app.post(
    '/two-factor-service/setup-with-ticket',
    {
      schema: {
        summary: 'Two-factor required by the server: start setting it up during sign-in',
        description: "With the ticket of a 202 answer of login whose `methods` are `['setup']`, from the same browser.",
        tags,
        body: setupTicketBody,
        response: { 200: setupDto },
        errors: ['VALIDATION_FAILED', 'INVALID_TICKET', 'TWO_FACTOR_ENABLED'],
      },
    },
    async (request, reply): Promise<TwoFactorSetupDto> => {
      const { ticket } = parseInput(setupTicketBody, request.body);
      void reply.headers(noStore);
      return twoFactor.setupWithTicket(ticket, browserId(request));
    },
  );

  app.post(
    '/two-factor-service/enable-with-ticket',
    {
      schema: {
        summary: 'Two-factor required by the server: confirm the setup with a first code, and sign in',
        description: 'Answers the recovery codes (shown once) and sets the session cookies; the ticket is spent.',
        tags,
        body: enableWithTicketBody,
        response: { 200: z.object({ user: userDto, recoveryCodes: z.array(z.string()) }) },
        errors: ['VALIDATION_FAILED', 'INVALID_TICKET', 'INVALID_CODE', 'TWO_FACTOR_NOT_ENABLED', 'LOGIN_THROTTLED', 'ACCOUNT_DISABLED'],
      },
    },
    async (request, reply): Promise<LoginResponse & RecoveryCodesDto> => {
      const { ticket, code } = parseInput(enableWithTicketBody, request.body);
      const caller = callerOf(request);
      const { account, tokens, recoveryCodes } = await accounts.enableTwoFactorAndSignIn(ticket, code, browserId(request), caller);
      setSessionCookies(reply, tokens, secureCookies, LIMITS.accessTokenMs);
      void reply.headers(noStore);
      return { user: toUserDto(account), recoveryCodes };
    },
  );
}
