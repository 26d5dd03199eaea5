import type { ErrorCode } from '@nimbus/common';

/** A failure the domain expects. It knows its stable code, never an HTTP status. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidError extends DomainError {
  constructor(message: string, details?: unknown, code: ErrorCode = 'VALIDATION_FAILED') {
    super(code, message, details);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(code: ErrorCode = 'UNAUTHENTICATED', message = 'Not signed in') {
    super(code, message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(code: ErrorCode = 'FORBIDDEN', message = 'Forbidden') {
    super(code, message);
  }
}

export class NotFoundError extends DomainError {
  constructor(code: ErrorCode = 'NOT_FOUND', message = 'Not found') {
    super(code, message);
  }
}

export class ConflictError extends DomainError {
  constructor(code: ErrorCode = 'CONFLICT', message = 'Conflict') {
    super(code, message);
  }
}

export class TooManyError extends DomainError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message, { retryAfterSeconds });
  }
}

export class UnavailableError extends DomainError {
  constructor(message: string) {
    super('UNAVAILABLE', message);
  }
}
