import {
  invitationTokenParams,
  inviteBody,
  type CreatedInvitationDto,
  type InvitationDto,
  type InvitationPreviewDto,
} from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { Clock } from '../../../services/clock.js';
import type { InvitationService } from '../../../services/accounts/invitation.service.js';
import { callerOf } from '../../caller.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { noContent, signedIn } from '../../api-schemas.js';
import { presentCreatedInvitation, presentInvitation, presentInvitationPreview } from './invitations.presenter.js';
import { createdInvitationDto, invitationDto, invitationPreviewDto } from './invitations.schemas.js';

export interface InvitationRoutesDeps {
  invitations: InvitationService;
  clock: Clock;
  requireAuth: preHandlerAsyncHookHandler;
}

const idParams = z.object({ id: z.string().min(1).max(64) });

/** Inviting people to make an account, and the public preview of an invitation link. */
export function invitationRoutes(app: FastifyInstance, deps: InvitationRoutesDeps): void {
  const { invitations, clock } = deps;
  const auth = { preHandler: deps.requireAuth };
  const tags = ['users'];

  app.post(
    '/invitation-service/invitations',
    {
      ...auth,
      schema: signedIn({
        summary: 'Invite someone to make an account',
        description: 'Administrators may always invite; other accounts when the server setting `usersMayInvite` is on.',
        tags,
        body: inviteBody,
        response: { 201: createdInvitationDto },
        errors: ['VALIDATION_FAILED', 'INVITE_NOT_ALLOWED', 'EMAIL_EXISTS', 'RATE_LIMITED'],
      }),
    },
    async (request, reply): Promise<CreatedInvitationDto> => {
      const { email } = parseInput(inviteBody, request.body);
      const created = await invitations.create(authOf(request).accountId, email, callerOf(request));
      void reply.status(201);
      return presentCreatedInvitation(created, clock.now());
    },
  );

  app.get(
    '/invitation-service/invitations',
    {
      ...auth,
      schema: signedIn({
        summary: 'Invitations: all of them for an administrator, else those the account sent',
        description: 'Newest first, at most 500.',
        tags,
        response: { 200: z.array(invitationDto) },
      }),
    },
    async (request): Promise<InvitationDto[]> => {
      const now = clock.now();
      return (await invitations.list(authOf(request).accountId)).map((row) => presentInvitation(row, now));
    },
  );

  app.post(
    '/invitation-service/invitations/:id/resend',
    {
      ...auth,
      schema: signedIn({
        summary: 'Send an invitation again, with a new link valid 7 days',
        description: 'The previous link stops working.',
        tags,
        params: idParams,
        response: { 200: createdInvitationDto },
        errors: ['VALIDATION_FAILED', 'INVITE_NOT_ALLOWED', 'INVITATION_NOT_FOUND', 'CONFLICT', 'RATE_LIMITED'],
      }),
    },
    async (request): Promise<CreatedInvitationDto> => {
      const { id } = parseInput(idParams, request.params);
      return presentCreatedInvitation(await invitations.resend(authOf(request).accountId, id, callerOf(request)), clock.now());
    },
  );

  app.delete(
    '/invitation-service/invitations/:id',
    {
      ...auth,
      schema: signedIn({
        summary: 'Revoke an invitation',
        tags,
        params: idParams,
        response: { 204: noContent },
        errors: ['VALIDATION_FAILED', 'INVITATION_NOT_FOUND', 'CONFLICT'],
      }),
    },
    async (request, reply) => {
      const { id } = parseInput(idParams, request.params);
      await invitations.revoke(authOf(request).accountId, id, callerOf(request));
      return reply.status(204).send();
    },
  );

  app.get(
    '/invitation-service/public/:token',
    {
      schema: {
        summary: 'What an invitation link is for',
        description: 'For the sign-up page of `/invite/{token}`; no account needed.',
        tags,
        params: invitationTokenParams,
        response: { 200: invitationPreviewDto },
        errors: ['VALIDATION_FAILED', 'INVITATION_NOT_FOUND'],
      },
    },
    async (request): Promise<InvitationPreviewDto> => {
      const { token } = parseInput(invitationTokenParams, request.params);
      return presentInvitationPreview(await invitations.open(token));
    },
  );
}
