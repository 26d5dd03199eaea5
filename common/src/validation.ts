import { LIMITS } from './limits.js';

export const VALIDATION_MESSAGES = {
  passwordTooShort: 'Password must be at least 6 characters',
  passwordTooLong: 'Password must be less than 256 characters',
  passwordsDoNotMatch: 'Passwords do not match',
  emailTooShort: 'Email must be at least 3 characters',
  emailTooLong: 'Email must be less than 320 characters',
  emailInvalid: 'Email is invalid',
} as const;

const SPACE_OR_CONTROL = /[\s\p{Cc}]/u;
/** Characters that turn an address into a display name, a group or a list when a mailer parses it. */
const MAIL_SYNTAX = /[<>,;:"()[\]\\]/;

/**
 * A deliberately plain format check: one @ with text on both sides, no spaces, control
 * characters or mail syntax (`<>,;:"()[]\`), and a dot inside the domain. Spelled out rather than as one regular expression
 * because such a pattern backtracks in quadratic time on long inputs like `a@a.a.a…@`.
 */
export function isEmailFormatValid(email: string): boolean {
  const at = email.indexOf('@');
  if (at < 1 || email.includes('@', at + 1) || SPACE_OR_CONTROL.test(email) || MAIL_SYNTAX.test(email)) return false;
  const domain = email.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot !== -1 && dot < domain.length - 1;
}

/** Password rules of creating an account, resetting and changing a password: the first failure, or null. */
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

/** Create-account rules in order (password length, match, then e-mail): the first failure shows. */
export function validateCreateAccount(input: { email: string; password: string; verifyPassword?: string }): string | null {
  return validateNewPassword(input.password, input.verifyPassword) ?? validateEmail(input.email);
}
