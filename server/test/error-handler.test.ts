import { ERROR_CODES } from '@nimbus/common';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  TooManyError,
  UnauthorizedError,
  UnavailableError,
} from '../src/domain/errors.js';
import { registerErrorHandler, statusOf } from '../src/http/plugins/error-handler.js';
import { registerSecurityHeaders } from '../src/http/plugins/security-headers.js';

const THROWERS: Record<string, () => never> = {
  invalid: () => {
    throw new InvalidError('Email is invalid', [{ path: 'email', message: 'Email is invalid' }]);
  },
  unauthorized: () => {
    throw new UnauthorizedError();
  },
  forbidden: () => {
    throw new ForbiddenError('SIGNUP_CLOSED', 'Sign-up is closed');
  },
  'not-found': () => {
    throw new NotFoundError('USER_NOT_FOUND', 'Email does not exist');
  },
  conflict: () => {
    throw new ConflictError('EMAIL_EXISTS', 'Email already exists');
  },
  'too-many': () => {
    throw new TooManyError('COOLDOWN', 'Please wait 1 minute before resending', 42);
  },
  unavailable: () => {
    throw new UnavailableError('The e-mail could not be sent; try again later');
  },
  bug: () => {
    throw new Error('secret internals: password=hunter2');
  },
};

describe('error handler', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    registerErrorHandler(app);
    await registerSecurityHeaders(app, { https: false });
    for (const [name, thrower] of Object.entries(THROWERS)) app.get(`/${name}`, async () => thrower());
    app.post('/echo', async (request) => request.body);
    await app.ready();
  });
  afterAll(() => app.close());

  it.each([
    ['invalid', 400, 'VALIDATION_FAILED'],
    ['unauthorized', 401, 'UNAUTHENTICATED'],
    ['forbidden', 403, 'SIGNUP_CLOSED'],
    ['not-found', 404, 'USER_NOT_FOUND'],
    ['conflict', 409, 'EMAIL_EXISTS'],
    ['too-many', 429, 'COOLDOWN'],
    ['unavailable', 503, 'UNAVAILABLE'],
  ])('maps %s to %i with {error, code, requestId}', async (name, status, code) => {
    const response = await app.inject({ method: 'GET', url: `/${name}` });
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toMatchObject({ error: expect.any(String), code, requestId: expect.any(String) });
  });

  it('lists validation problems in details', async () => {
    const response = await app.inject({ method: 'GET', url: '/invalid' });
    expect(response.json()).toMatchObject({ error: 'Email is invalid', details: [{ path: 'email', message: 'Email is invalid' }] });
  });

  it('sends retry-after with a 429', async () => {
    const response = await app.inject({ method: 'GET', url: '/too-many' });
    expect(response.headers['retry-after']).toBe('42');
  });

  it('turns an unexpected error into a generic 500 that reveals nothing', async () => {
    const response = await app.inject({ method: 'GET', url: '/bug' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error', code: 'INTERNAL', requestId: expect.any(String) });
    expect(response.body).not.toContain('hunter2');
  });

  it.each([
    ['malformed JSON', 'application/json', '{"a": ', 400],
    ['an empty JSON body', 'application/json', '', 400],
    ['an unsupported content type', 'application/xml', '<a/>', 400],
    ['a body over the limit', 'application/json', JSON.stringify({ a: 'x'.repeat(2 * 1024 * 1024) }), 413],
  ])('answers %s with %i', async (_name, contentType, payload, status) => {
    const response = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': contentType }, payload });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code: status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_FAILED' });
  });

  it('keeps the security headers on error responses', async () => {
    const response = await app.inject({ method: 'GET', url: '/bug' });
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('has a status for every stable error code', () => {
    for (const code of ERROR_CODES) expect(statusOf(code), code).toBeGreaterThanOrEqual(400);
  });
});
