import { ApiError } from '../../api/api-error';

/** What a failed code check says, in words. */
export function codeErrorMessage(err: unknown): string {
  const code = err instanceof ApiError ? err.code : undefined;
  switch (code) {
    case 'INVALID_CODE':
      return 'That code is not right, or was already used. Wait for the next code and try again.';
    case 'VALIDATION_FAILED':
      return 'Enter the 6 digits from your authenticator app.';
    case 'LOGIN_THROTTLED':
      return 'Too many wrong codes. Try again in 15 minutes.';
    case 'INVALID_TICKET':
      return 'This sign-in took too long. Sign in again with your password.';
    case 'TWO_FACTOR_REQUIRED':
      return 'This server requires two-factor sign-in: it cannot be turned off.';
    case 'TWO_FACTOR_ENABLED':
      return 'Two-factor sign-in is already on.';
    case 'TWO_FACTOR_NOT_ENABLED':
      return 'Two-factor sign-in is not on. Start again.';
    default:
      return 'Something went wrong. Try again.';
  }
}
