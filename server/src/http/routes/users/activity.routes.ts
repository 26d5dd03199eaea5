import { activityQuery, type ActivityEventDto, type ActivityPageDto, type SecurityEventType } from '@nimbus/common';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { SecurityEventRow, SecurityLogService } from '../../../services/accounts/security-log.service.js';
import { authOf } from '../../plugins/auth.js';
import { parseInput } from '../../validation.js';
import { activityPageDto, signedIn } from '../../api-schemas.js';

export interface ActivityRoutesDeps {
  securityLog: SecurityLogService;
  requireAuth: preHandlerAsyncHookHandler;
}

function presentEvent(row: SecurityEventRow): ActivityEventDto {
  return {
    id: row.id,
    // Written only by SecurityLogService, from SecurityEventType.
    type: row.type as SecurityEventType,
    at: new Date(row.createdAt).toISOString(),
    clientAddress: row.clientAddress,
    userAgent: row.userAgent,
    details: row.details === null ? null : (JSON.parse(row.details) as ActivityEventDto['details']),
  };
}

export function activityRoutes(app: FastifyInstance, deps: ActivityRoutesDeps): void {
  const schema = signedIn({
    summary: "The account's security events, newest first",
    tags: ['users'],
    querystring: activityQuery,
    response: { 200: activityPageDto },
    errors: ['VALIDATION_FAILED'],
  });
  app.get('/user-service/activity', { preHandler: deps.requireAuth, schema }, async (request, reply): Promise<ActivityPageDto> => {
    const query = parseInput(activityQuery, request.query);
    const page = await deps.securityLog.list(authOf(request).accountId, query);
    void reply.header('cache-control', 'no-store');
    return { events: page.events.map(presentEvent), nextCursor: page.nextCursor };
  });
}
