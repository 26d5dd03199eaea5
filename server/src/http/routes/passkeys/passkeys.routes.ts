import {
  LIMITS,
  passkeyNameBody,
  passkeySecondFactorBody,
  passkeySignInBody,
  passkeyTicketBody,
  registerPasskeyBody,
  type LoginResponse,
  type PasskeyDto,
} from '@nimbus/common';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { InvalidError } from '../../../domain/errors.js';
import { toUserDto, type AccountService } from '../../../services/accounts/account.service.js';
import type { PasskeyRow, PasskeyService } from '../../../services/accounts/passkey.service.js';
import type { IssuedTokens } from '../../../services/accounts/session.service.js';
import { callerOf } from '../../caller.js';
import { setSessionCookies } from '../../cookies.js';
import { authOf, browserIdOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { noContent, signedIn, userDto } from '../../api-schemas.js';

type AccountRow = Awaited<ReturnType<AccountService['get']>>;

export interface PasskeyRoutesDeps {
  passkeys: PasskeyService;
  accounts: AccountService;
  requireAuth: preHandlerAsyncHookHandler;
  secureCookies: boolean;
}

const idParams = z.object({ id: z.string().min(1).max(64) });
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const passkeyDto = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  backedUp: z.boolean(),
});
/** WebAuthn options as the browser's navigator.credentials takes them (through @simplewebauthn/browser). */
const creationOptions = z.looseObject({ challenge: z.string(), rp: z.looseObject({}), user: z.looseObject({}) });
const requestOptions = z.looseObject({ challenge: z.string() });
/** Proof of a factor the caller knows before a passkey is added; none for an account without a password. */
const registrationOptionsBody = z
  .object({
    password: z.string().min(1).max(LIMITS.passwordMax),
    code: z.string().min(1).max(16),
  })
  .partial();

function present(row: PasskeyRow): PasskeyDto {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.createdAt).toISOString(),
    lastUsedAt: iso(row.lastUsedAt),
    backedUp: row.backedUp === 1,
  };
}

export function passkeyRoutes(app: FastifyInstance, deps: PasskeyRoutesDeps): void {
  const { passkeys, accounts, secureCookies } = deps;
  const auth = { preHandler: deps.requireAuth };
  const tags = ['passkeys'];
  const browserId = (request: FastifyRequest): string => {
    const id = browserIdOf(request);
    if (!id) throw new InvalidError('Missing or invalid uuid header', undefined, 'MISSING_BROWSER_ID');
    return id;
  };
  const signInAnswer = (reply: FastifyReply, result: { account: AccountRow; tokens: IssuedTokens }): LoginResponse => {
    setSessionCookies(reply, result.tokens, secureCookies, LIMITS.accessTokenMs);
    return { user: toUserDto(result.account) };
  };

  app.post(
    '/passkey-service/registration/options',
    {
      ...auth,
      schema: signedIn({
        summary: 'Start adding a passkey',
        description:
          'Options for `navigator.credentials.create`; the challenge is answered once, from this browser, within 5 minutes. ' +
          'Asks for the current `password` (throttled like change-password), or with two-factor on a `code` from the app instead; ' +
          'an account without a password (single sign-on) sends neither.',
        tags,
        body: registrationOptionsBody,
        response: { 200: creationOptions },
        errors: [
          'VALIDATION_FAILED',
          'MISSING_BROWSER_ID',
          'INVALID_CREDENTIALS',
          'INVALID_CODE',
          'LOGIN_THROTTLED',
          'CONFLICT',
          'RATE_LIMITED',
        ],
      }),
    },
    async (request) => {
      const proof = parseInput(registrationOptionsBody, request.body ?? {});
      const account = await accounts.get(authOf(request).accountId);
      return passkeys.registrationOptions(account, browserId(request), callerOf(request), proof);
    },
  );

  app.post(
    '/passkey-service/registration/verify',
    {
      ...auth,
      schema: signedIn({
        summary: 'Add a passkey: the browser’s answer to the registration options, and its name',
        tags,
        body: registerPasskeyBody,
        response: { 201: passkeyDto },
        errors: ['VALIDATION_FAILED', 'MISSING_BROWSER_ID', 'PASSKEY_REFUSED', 'CONFLICT'],
      }),
    },
    async (request, reply): Promise<PasskeyDto> => {
      const body = parseInput(registerPasskeyBody, request.body);
      const row = await passkeys.register(
        authOf(request).accountId,
        browserId(request),
        body.name,
        body.response as RegistrationResponseJSON,
      );
      void reply.status(201);
      return present(row);
    },
  );

  app.get(
    '/passkey-service/passkeys',
    { ...auth, schema: signedIn({ summary: "The account's passkeys", tags, response: { 200: z.array(passkeyDto) } }) },
    async (request): Promise<PasskeyDto[]> => (await passkeys.list(authOf(request).accountId)).map(present),
  );

  app.patch(
    '/passkey-service/passkeys/:id',
    {
      ...auth,
      schema: signedIn({
        summary: 'Rename a passkey',
        tags,
        params: idParams,
        body: passkeyNameBody,
        response: { 200: passkeyDto },
        errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
      }),
    },
    async (request): Promise<PasskeyDto> => {
      const { id } = parseInput(idParams, request.params);
      const { name } = parseInput(passkeyNameBody, request.body);
      return present(await passkeys.rename(authOf(request).accountId, id, name));
    },
  );

  app.delete(
    '/passkey-service/passkeys/:id',
    {
      ...auth,
      schema: signedIn({
        summary: 'Remove a passkey',
        tags,
        params: idParams,
        response: { 204: noContent },
        errors: ['VALIDATION_FAILED', 'NOT_FOUND'],
      }),
    },
    async (request, reply) => {
      await passkeys.remove(authOf(request).accountId, parseInput(idParams, request.params).id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/passkey-service/sign-in/options',
    {
      schema: {
        summary: 'Start signing in with a passkey',
        description:
          'Options for `navigator.credentials.get` naming no credential: the browser offers the passkeys it holds for this site.',
        tags,
        response: { 200: requestOptions },
        errors: ['MISSING_BROWSER_ID', 'RATE_LIMITED'],
      },
    },
    async (request) => passkeys.signInOptions(browserId(request), callerOf(request)),
  );

  app.post(
    '/passkey-service/sign-in/verify',
    {
      schema: {
        summary: 'Sign in with a passkey',
        description: 'Sets the session cookies, as `/user-service/login` does. No second step: a passkey is two factors itself.',
        tags,
        body: passkeySignInBody,
        response: { 200: z.object({ user: userDto }) },
        errors: ['VALIDATION_FAILED', 'MISSING_BROWSER_ID', 'PASSKEY_REFUSED', 'UNAUTHENTICATED', 'ACCOUNT_DISABLED', 'LOGIN_THROTTLED'],
      },
    },
    async (request, reply): Promise<LoginResponse> => {
      const body = parseInput(passkeySignInBody, request.body);
      return signInAnswer(reply, await passkeys.signIn(body.response as AuthenticationResponseJSON, browserId(request), callerOf(request)));
    },
  );

  app.post(
    '/passkey-service/second-factor/options',
    {
      schema: {
        summary: 'Start the second step of a password sign-in with a passkey',
        description: 'For the `ticket` of a 202 from `/user-service/login`; names the account’s passkeys.',
        tags,
        body: passkeyTicketBody,
        response: { 200: requestOptions },
        errors: ['VALIDATION_FAILED', 'MISSING_BROWSER_ID', 'INVALID_TICKET', 'PASSKEY_REFUSED', 'NOT_FOUND', 'RATE_LIMITED'],
      },
    },
    async (request) => {
      const { ticket } = parseInput(passkeyTicketBody, request.body);
      return passkeys.secondFactorOptions(ticket, browserId(request), callerOf(request));
    },
  );

  app.post(
    '/passkey-service/second-factor/verify',
    {
      schema: {
        summary: 'Finish a password sign-in with a passkey of the same account',
        description: 'Sets the session cookies, as `/user-service/login` does; the ticket is spent.',
        tags,
        body: passkeySecondFactorBody,
        response: { 200: z.object({ user: userDto }) },
        errors: [
          'VALIDATION_FAILED',
          'MISSING_BROWSER_ID',
          'INVALID_TICKET',
          'PASSKEY_REFUSED',
          'NOT_FOUND',
          'UNAUTHENTICATED',
          'ACCOUNT_DISABLED',
          'LOGIN_THROTTLED',
        ],
      },
    },
    async (request, reply): Promise<LoginResponse> => {
      const body = parseInput(passkeySecondFactorBody, request.body);
      const result = await passkeys.secondFactor(
        body.ticket,
        body.response as AuthenticationResponseJSON,
        browserId(request),
        callerOf(request),
      );
      return signInAnswer(reply, result);
    },
  );
}
