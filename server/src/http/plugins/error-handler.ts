import type { ApiErrorBody, ErrorCode } from '@nimbus/common';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, TooManyError } from '../../domain/errors.js';
import { UploadAbortedError } from '../multipart.js';

/** The one place where stable error codes become HTTP status codes. */
const STATUS: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  CONFIRMATION_MISMATCH: 400,
  MISSING_BROWSER_ID: 400,
  INVITATION_EMAIL_MISMATCH: 400,
  SHARE_WITH_SELF: 400,
  INVALID_MOVE: 400,
  FOLDER_TOO_DEEP: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  PASSKEY_REFUSED: 401,
  WRONG_PASSWORD: 401,
  INVALID_TOKEN: 401,
  INVALID_TICKET: 401,
  INVALID_CODE: 401,
  SIGNUP_CLOSED: 403,
  SIGNUP_INVITE_ONLY: 403,
  INVITE_NOT_ALLOWED: 403,
  EMAIL_DISABLED: 403,
  FORBIDDEN: 403,
  ADMIN_ONLY: 403,
  ACCOUNT_DISABLED: 403,
  TWO_FACTOR_REQUIRED: 403,
  SHARE_READ_ONLY: 403,
  SHARE_ROOT_LOCKED: 403,
  SHARE_MOVE_REFUSED: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  INVITATION_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  VERSION_NOT_FOUND: 404,
  FOLDER_NOT_FOUND: 404,
  RECIPIENT_NOT_FOUND: 404,
  SHARE_NOT_FOUND: 404,
  SESSION_NOT_FOUND: 404,
  PERSON_NOT_FOUND: 404,
  FACE_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  EMAIL_EXISTS: 409,
  CONFLICT: 409,
  LAST_ADMIN: 409,
  TWO_FACTOR_ENABLED: 409,
  TWO_FACTOR_NOT_ENABLED: 409,
  TOO_MANY_SHARES: 409,
  PEOPLE_OFF: 409,
  PAYLOAD_TOO_LARGE: 413,
  QUOTA_EXCEEDED: 413,
  RANGE_NOT_SATISFIABLE: 416,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UPLOAD_OFFSET_MISMATCH: 409,
  UPLOAD_BUSY: 423,
  CHECKSUM_MISMATCH: 460,
  PASSWORD_REQUIRED: 401,
  LINK_EXPIRED: 410,
  TUS_VERSION_UNSUPPORTED: 412,
  COOLDOWN: 429,
  LOGIN_THROTTLED: 429,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
};

export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

export function sendError(request: FastifyRequest, reply: FastifyReply, code: ErrorCode, message: string, details?: unknown): FastifyReply {
  const body: ApiErrorBody = { error: message, code, requestId: request.id };
  if (details !== undefined) body.details = details;
  return reply.status(STATUS[code]).type('application/json; charset=utf-8').send(body);
}

/** Fastify's own errors that are the client's fault, by their stable codes. */
function frameworkCode(error: FastifyError): ErrorCode | null {
  if (error.validation) return 'VALIDATION_FAILED';
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'PAYLOAD_TOO_LARGE';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return 'VALIDATION_FAILED';
    default:
      return clientErrorCode(error.statusCode);
  }
}

/**
 * Plugins such as @fastify/static (the web app) fail with http-errors carrying a 4xx status: a
 * Range past the end of index.html, a failed If-Match. They are the client's fault, never a 500.
 */
function clientErrorCode(status: number | undefined): ErrorCode | null {
  if (status === 416) return 'RANGE_NOT_SATISFIABLE';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  return status !== undefined && status >= 400 && status < 500 ? 'VALIDATION_FAILED' : null;
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      if (error instanceof TooManyError) void reply.header('retry-after', String(error.retryAfterSeconds));
      if (STATUS[error.code] >= 500) request.log.error({ err: error }, error.message);
      return sendError(request, reply, error.code, error.message, error instanceof TooManyError ? undefined : error.details);
    }
    if (error instanceof UploadAbortedError) {
      // The client went away mid-upload (closed the tab, cancelled): routine, and nobody reads the answer.
      request.log.info('the client aborted the upload');
      return sendError(request, reply, 'VALIDATION_FAILED', error.message);
    }
    const code = frameworkCode(error);
    const contentRange = (error as { headers?: Record<string, string> }).headers?.['Content-Range'];
    if (code === 'RANGE_NOT_SATISFIABLE' && contentRange) void reply.header('content-range', contentRange);
    if (code) return sendError(request, reply, code, code === 'PAYLOAD_TOO_LARGE' ? 'Request body is too large' : 'Invalid request');
    request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, 'INTERNAL', 'Internal server error');
  });
}
