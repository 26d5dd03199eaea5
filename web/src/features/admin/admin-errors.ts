import { errorCodeOf } from '../invitation/invitation-errors';

const ADMIN_MESSAGES: Record<string, string> = {
  ADMIN_ONLY: 'Only an administrator can open this page',
  LAST_ADMIN: 'This is the last administrator: make another account an administrator first.',
  CONFIRMATION_MISMATCH: 'The e-mail address typed does not match the account.',
  USER_NOT_FOUND: 'This account no longer exists.',
  VALIDATION_FAILED: 'Some of the values are not valid.',
  COOLDOWN: 'A password reset was sent a moment ago. Wait a minute before sending another.',
  NETWORK_ERROR: 'The server could not be reached. Check your connection and try again.',
};

/** What the admin area says for a failed call, in words; never the raw code. */
export function adminErrorMessage(error: unknown, fallback: string): string {
  return ADMIN_MESSAGES[errorCodeOf(error)] ?? fallback;
}

export const isAdminOnly = (error: unknown) => errorCodeOf(error) === 'ADMIN_ONLY';
