import type { ApiErrorBody, ErrorCode } from '@nimbus/common';
import axios from 'axios';

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

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (axios.isAxiosError(error)) {
    const response = error.response;
    if (!response) return new ApiError(0, 'NETWORK_ERROR', error.message, undefined, error);
    const body: unknown = response.data;
    if (isErrorBody(body)) return new ApiError(response.status, body.code, body.error, body.requestId, error);
    return new ApiError(response.status, 'UNKNOWN', error.message, undefined, error);
  }
  return new ApiError(0, 'UNKNOWN', error instanceof Error ? error.message : String(error), undefined, error);
}

export function statusOf(error: unknown): number {
  return error instanceof ApiError ? error.status : 0;
}
