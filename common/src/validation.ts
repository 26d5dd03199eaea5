import { LIMITS } from './limits.js';

export const VALIDATION_MESSAGES = {
  passwordTooShort: 'Password must be at least 6 characters',
  passwordTooLong: 'Password must be less than 256 characters',
  passwordsDoNotMatch: 'Passwords do not match',
  emailTooShort: 'Email must be at least 3 characters',
  emailTooLong: 'Email must be less than 320 characters',
  emailInvalid: 'Email is invalid',
} as const;

/** A deliberately plain format check: one @, no spaces, a dot in the domain. */
const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailFormatValid(email: string): boolean {
  return EMAIL_FORMAT.test(email);
}

/** Password rules of SPEC §5 (create, reset, change): the first failure, or null. */
export function validateNewPassword(password: string, verifyPassword?: string): string | null {
  if (password.length < LIMITS.passwordMin) return VALIDATION_MESSAGES.passwordTooShort;
  if (password.length > LIMITS.passwordMax) return VALIDATION_MESSAGES.passwordTooLong;
  if (verifyPassword !== undefined && password.length > 0 && verifyPassword.length > 0 && password !== verifyPassword) {
    return VALIDATION_MESSAGES.passwordsDoNotMatch;
  }
  return null;
}

export function validateEmail(email: string): string | null {
  if (email.length < LIMITS.emailMin) return VALIDATION_MESSAGES.emailTooShort;
  if (email.length > LIMITS.emailMax) return VALIDATION_MESSAGES.emailTooLong;
  if (!isEmailFormatValid(email)) return VALIDATION_MESSAGES.emailInvalid;
  return null;
}

/** Create-account rules in the order of SPEC §5: the first failure shows. */
export function validateCreateAccount(input: { email: string; password: string; verifyPassword?: string }): string | null {
  return validateNewPassword(input.password, input.verifyPassword) ?? validateEmail(input.email);
}
