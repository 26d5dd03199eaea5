import { AUTH_MESSAGES } from '@nimbus/common';

export const ACCOUNT_DISABLED_MESSAGE = 'This account is disabled. Ask your administrator to enable it.';

/** What the authentication screen says for each failed call, by HTTP status (and the one code a login names). */
export function loginErrorMessage(status: number, code?: string): string {
  // The server says so only after the right password: the person may know, and needs to ask someone.
  if (code === 'ACCOUNT_DISABLED') return ACCOUNT_DISABLED_MESSAGE;
  return status === 400 || status === 401 ? AUTH_MESSAGES.incorrectCredentials : AUTH_MESSAGES.loginError;
}

export function createAccountErrorMessage(status: number): string {
  if (status === 409) return AUTH_MESSAGES.emailExists;
  if (status === 400) return AUTH_MESSAGES.validationError;
  return AUTH_MESSAGES.createAccountError;
}

export function passwordResetRequestErrorMessage(status: number): string {
  if (status === 404) return AUTH_MESSAGES.emailDoesNotExist;
  if (status === 403) return AUTH_MESSAGES.emailVerificationNotEnabled;
  return AUTH_MESSAGES.passwordResetRequestFailed;
}
