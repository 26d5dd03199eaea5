/**
 * Stable error codes of the HTTP API. Renaming one is an API change.
 * The server maps each to a status code in one place; the web app branches on `code`, never on text.
 */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'CONFIRMATION_MISMATCH',
  'MISSING_BROWSER_ID',
  'INVITATION_EMAIL_MISMATCH',
  'UNAUTHENTICATED',
  'INVALID_CREDENTIALS',
  'WRONG_PASSWORD',
  'INVALID_TOKEN',
  'SIGNUP_CLOSED',
  'SIGNUP_INVITE_ONLY',
  'INVITE_NOT_ALLOWED',
  'EMAIL_DISABLED',
  'FORBIDDEN',
  'ADMIN_ONLY',
  'ACCOUNT_DISABLED',
  'SHARE_READ_ONLY',
  'SHARE_ROOT_LOCKED',
  'SHARE_MOVE_REFUSED',
  'SHARE_WITH_SELF',
  'NOT_FOUND',
  'USER_NOT_FOUND',
  'INVITATION_NOT_FOUND',
  'FILE_NOT_FOUND',
  'FOLDER_NOT_FOUND',
  'RECIPIENT_NOT_FOUND',
  'SHARE_NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'EMAIL_EXISTS',
  'CONFLICT',
  'LAST_ADMIN',
  'TOO_MANY_SHARES',
  'INVALID_MOVE',
  'FOLDER_TOO_DEEP',
  'PAYLOAD_TOO_LARGE',
  'QUOTA_EXCEEDED',
  'INSUFFICIENT_STORAGE',
  'RANGE_NOT_SATISFIABLE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UPLOAD_OFFSET_MISMATCH',
  'UPLOAD_BUSY',
  'CHECKSUM_MISMATCH',
  'PASSWORD_REQUIRED',
  'LINK_EXPIRED',
  'TUS_VERSION_UNSUPPORTED',
  'COOLDOWN',
  'LOGIN_THROTTLED',
  'RATE_LIMITED',
  'INTERNAL',
  'UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Body of every error response. */
export interface ApiErrorBody {
  error: string;
  code: ErrorCode;
  requestId: string;
  details?: unknown;
}
