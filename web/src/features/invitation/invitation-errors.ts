import { ApiError } from '../../api/api-error';

/** The server's error code of a failed call, as a plain string (codes newer than the shared union included). */
export function errorCodeOf(error: unknown): string {
  return error instanceof ApiError ? error.code : 'UNKNOWN';
}

const INVITATION_MESSAGES: Record<string, string> = {
  EMAIL_EXISTS: 'An account with this e-mail address already exists.',
  INVITE_NOT_ALLOWED: 'Only an administrator can invite people on this server.',
  INVITATION_NOT_FOUND: 'This invitation does not exist or has expired.',
  INVITATION_EMAIL_MISMATCH: 'This invitation was made for another e-mail address.',
  VALIDATION_FAILED: 'Enter a valid e-mail address.',
  CONFLICT: 'This invitation was already accepted or revoked.',
  RATE_LIMITED: 'Too many invitations for now. Try again later.',
  NETWORK_ERROR: 'The server could not be reached. Check your connection and try again.',
};

/** What the invitation dialogs and pages say for a failed call, in words. */
export function invitationErrorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  return INVITATION_MESSAGES[errorCodeOf(error)] ?? fallback;
}
