import type { ApiErrorBody, ErrorCode } from '@nimbus/common';

/** Every failed call rejects with this: the HTTP status (0 without a response) and the server's stable code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'NETWORK_ERROR' | 'UNKNOWN',
    message: string,
    readonly requestId?: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function isErrorBody(data: unknown): data is ApiErrorBody {
  return typeof data === 'object' && data !== null && typeof (data as ApiErrorBody).code === 'string';
}

/** A non-2xx answer as an ApiError: the server's code and message when its body carries them. */
export function toApiError(response: { status: number; data: unknown }): ApiError {
  const body = response.data;
  if (isErrorBody(body)) return new ApiError(response.status, body.code, body.error, body.requestId, response);
  return new ApiError(response.status, 'UNKNOWN', `Request failed with status code ${response.status}`, undefined, response);
}

export function statusOf(error: unknown): number {
  return error instanceof ApiError ? error.status : 0;
}
