export type AuthMode = 'login' | 'create' | 'reset';

export const HEADINGS: Record<AuthMode, string> = {
  login: 'Login to your account',
  create: 'Create an account',
  reset: 'Reset Password',
};

export const SUBMIT_LABELS: Record<AuthMode, string> = {
  login: 'Login',
  create: 'Create account',
  reset: 'Send reset link',
};

export interface AuthFields {
  email: string;
  password: string;
  verifyPassword: string;
}

/** Login needs email and password; create also the verify password; reset only the email. */
export function hasRequiredFields(mode: AuthMode, fields: AuthFields): boolean {
  if (!fields.email) return false;
  if (mode === 'reset') return true;
  if (!fields.password) return false;
  return mode === 'login' || fields.verifyPassword.length > 0;
}
