import { z } from 'zod';

/** How a sign-in waiting for its second step may finish it; `setup` when the server requires two-factor and the account has none yet. */
export const SECOND_FACTOR_METHODS = ['totp', 'recovery', 'passkey', 'setup'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** The 202 answer of `POST /user-service/login` for an account with two-factor on: no cookie yet. */
export interface SecondFactorChallengeDto {
  secondFactor: { ticket: string; methods: SecondFactorMethod[] };
}

export const TWO_FACTOR_LIMITS = {
  recoveryCodes: 10,
  /** Longest code input accepted (a recovery code with spaces around it). */
  maxCodeLength: 32,
  maxTicketLength: 128,
} as const;

/** Six digits from the authenticator app; a space in the middle (as apps show them) is allowed. */
export const totpCode = z.string().regex(/^\s*\d{3}\s?\d{3}\s*$/, 'code must be the 6 digits from the authenticator app');
/** Ten letters and digits, as shown ("abcde-12345"); letter case, a dash and spaces do not matter. */
export const recoveryCode = z
  .string()
  .max(TWO_FACTOR_LIMITS.maxCodeLength, 'recovery code is too long')
  .regex(/^\s*[A-Za-z0-9]{5}[\s-]?[A-Za-z0-9]{5}\s*$/, 'recovery code must be the ten letters and digits shown');
/** A code from the app or a recovery code. */
export const anyTwoFactorCode = z.string().min(1, 'code is required').max(TWO_FACTOR_LIMITS.maxCodeLength, 'code is too long');
const ticket = z
  .string()
  .min(1, 'ticket is required')
  .max(TWO_FACTOR_LIMITS.maxTicketLength, 'ticket is too long')
  .regex(/^[A-Za-z0-9_-]+$/, 'ticket is not one this server gave');

export const twoFactorCodeBody = z.strictObject({ code: totpCode });
export const twoFactorAnyCodeBody = z.strictObject({ code: anyTwoFactorCode });
export const secondFactorBody = z.union([z.strictObject({ ticket, code: totpCode }), z.strictObject({ ticket, recoveryCode })]);
export const setupTicketBody = z.strictObject({ ticket });
export const enableWithTicketBody = z.strictObject({ ticket, code: totpCode });

export type SecondFactorBody = z.infer<typeof secondFactorBody>;

export interface TwoFactorSetupDto {
  /** Base32, for typing into an app that cannot scan the QR code. */
  secret: string;
  /** The `otpauth://totp/...` URL the QR code shows. */
  otpauthUrl: string;
}

export interface RecoveryCodesDto {
  /** Shown this once; the server keeps only hashes. */
  recoveryCodes: string[];
}

export interface TwoFactorStatusDto {
  enabled: boolean;
  recoveryCodesLeft: number;
  /** The server requires two-factor for every account (admin setting): it cannot be turned off. */
  required: boolean;
}
