import {
  LIMITS,
  VALIDATION_MESSAGES as M,
  changePasswordBody,
  createAccountBody,
  isEmailFormatValid,
  loginBody,
  resetPasswordBody,
  validateCreateAccount,
  validateEmail,
  validateNewPassword,
} from '@nimbus/common';
import { describe, expect, it } from 'vitest';

describe('create-account rules in the order the form checks them', () => {
  const ok = { email: 'a@example.com', password: 'secret1', verifyPassword: 'secret1' };

  it.each([
    ['1. password too short beats everything else', { email: 'x', password: '12345', verifyPassword: 'other' }, M.passwordTooShort],
    [
      '2. password too long beats a mismatch and a bad e-mail',
      { email: 'x', password: 'p'.repeat(257), verifyPassword: 'other' },
      M.passwordTooLong,
    ],
    ['3. mismatch beats a bad e-mail', { email: 'x', password: 'secret1', verifyPassword: 'secret2' }, M.passwordsDoNotMatch],
    ['4. e-mail too short', { ...ok, email: 'a@' }, M.emailTooShort],
    ['5. e-mail too long beats a bad format', { ...ok, email: `${'a'.repeat(321)}` }, M.emailTooLong],
    ['6. e-mail malformed', { ...ok, email: 'not-an-email' }, M.emailInvalid],
  ])('%s', (_name, input, message) => {
    expect(validateCreateAccount(input)).toBe(message);
  });

  it('passes valid input, and ignores the verify field while either one is empty', () => {
    expect(validateCreateAccount(ok)).toBeNull();
    expect(validateCreateAccount({ ...ok, verifyPassword: '' })).toBeNull();
    expect(validateCreateAccount({ email: ok.email, password: ok.password })).toBeNull();
  });

  it('has the product limits at their exact boundaries', () => {
    expect(LIMITS).toMatchObject({ passwordMin: 6, passwordMax: 256, emailMin: 3, emailMax: 320 });
    expect(validateNewPassword('p'.repeat(6))).toBeNull();
    expect(validateNewPassword('p'.repeat(256))).toBeNull();
    expect(validateNewPassword('p'.repeat(5))).toBe(M.passwordTooShort);
    expect(validateNewPassword('p'.repeat(257))).toBe(M.passwordTooLong);
    expect(validateEmail(`${'a'.repeat(308)}@example.com`)).toBeNull();
    expect(validateEmail(`${'a'.repeat(309)}@example.com`)).toBe(M.emailTooLong);
    expect(validateEmail('a@b')).toBe(M.emailInvalid);
  });

  it('uses the exact messages the sign-up form shows', () => {
    expect(M).toEqual({
      passwordTooShort: 'Password must be at least 6 characters',
      passwordTooLong: 'Password must be less than 256 characters',
      passwordsDoNotMatch: 'Passwords do not match',
      emailTooShort: 'Email must be at least 3 characters',
      emailTooLong: 'Email must be less than 320 characters',
      emailInvalid: 'Email is invalid',
    });
  });
});

describe('e-mail format check', () => {
  it.each(['a@b.co', 'first.last+tag@sub.example.com', 'Jörg@Exämple.com', "o'brien@example.ie", 'a@b.c.d'])('accepts %j', (email) => {
    expect(isEmailFormatValid(email)).toBe(true);
  });

  it.each([
    '',
    'plain',
    '@example.com',
    'a@',
    'a@b',
    'a@.com',
    'a@com.',
    'a@@b.com',
    'a@b@c.com',
    'a b@c.com',
    'a@b.com\n',
    'a\u0000@b.com',
  ])('refuses %j', (email) => {
    expect(isEmailFormatValid(email)).toBe(false);
  });

  it('answers at once on long hostile input', () => {
    // A backtracking pattern spends minutes on this (quadratic time) and trips the test timeout.
    expect(isEmailFormatValid(`a@${'a.'.repeat(200_000)}@`)).toBe(false);
  });
});

describe('request schemas shared with the web app', () => {
  it('create reports the password rule before the e-mail rule, as the form does', () => {
    const result = createAccountBody.safeParse({ email: 'x', password: '1' });
    expect(result.error?.issues[0]?.message).toBe(M.passwordTooShort);
  });

  it('create trims the e-mail', () => {
    expect(createAccountBody.parse({ email: '  a@example.com ', password: 'secret1' })).toEqual({
      email: 'a@example.com',
      password: 'secret1',
    });
  });

  it('login and reset need only non-empty values, bounded so huge input is refused early', () => {
    expect(loginBody.safeParse({ email: 'x', password: 'y' }).success).toBe(true);
    expect(loginBody.safeParse({ email: '', password: 'y' }).success).toBe(false);
    expect(loginBody.safeParse({ email: 'x', password: 'y'.repeat(LIMITS.passwordMax + 1) }).success).toBe(false);
    expect(resetPasswordBody.safeParse({ passwordToken: 't'.repeat(513), password: 'secret1' }).success).toBe(false);
  });

  it('change-password needs a current password and a valid new one', () => {
    expect(changePasswordBody.safeParse({ oldPassword: '', newPassword: 'secret1' }).success).toBe(false);
    expect(changePasswordBody.safeParse({ oldPassword: 'x', newPassword: '12345' }).error?.issues[0]?.message).toBe(M.passwordTooShort);
    expect(changePasswordBody.safeParse({ oldPassword: 'x', newPassword: 'secret1' }).success).toBe(true);
  });
});
