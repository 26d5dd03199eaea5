import { DomainError, UnavailableError } from '../domain/errors.js';

/** The disk holding the store is full (or its quota reached): nothing of the write was kept. */
export class StorageFullError extends DomainError {
  constructor(cause: unknown) {
    super('INSUFFICIENT_STORAGE', 'The server has no room left to store this upload; nothing of it was kept');
    this.cause = cause;
  }
}

/** The object store kept failing (throttled, erroring or unreachable) after its retries. */
export class StorageUnavailableError extends UnavailableError {
  constructor(cause: unknown) {
    super('File storage is not answering right now; try again shortly');
    this.cause = cause;
  }
}

/** Node's errno codes for a full filesystem and an exhausted disk quota. */
const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT']);

/** Errno codes of a connection that failed or broke: the service may answer again soon. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

function errnoOf(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isNoSpace(err: unknown): boolean {
  const code = errnoOf(err);
  return code !== undefined && NO_SPACE_CODES.has(code);
}

export function isNetworkFailure(err: unknown): boolean {
  const code = errnoOf(err);
  return code !== undefined && NETWORK_CODES.has(code);
}

/** A filesystem error as the store reports it: a full disk becomes StorageFullError, anything else passes. */
export function fsWriteError(err: unknown): unknown {
  return isNoSpace(err) ? new StorageFullError(err) : err;
}
