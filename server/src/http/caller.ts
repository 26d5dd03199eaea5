import type { FastifyRequest } from 'fastify';
import type { Caller } from '../services/caller.js';
import { REFRESH_COOKIE } from './cookies.js';

/** Request headers are attacker-chosen: a user agent is kept only this long. */
const MAX_USER_AGENT = 512;

export function callerOf(request: FastifyRequest): Caller {
  const agent = request.headers['user-agent'];
  const refreshToken = request.cookies[REFRESH_COOKIE];
  return {
    address: request.ip,
    userAgent: agent ? agent.slice(0, MAX_USER_AGENT) : null,
    ...(refreshToken ? { refreshToken } : {}),
    log: request.log,
  };
}
