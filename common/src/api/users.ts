import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { VALIDATION_MESSAGES, isEmailFormatValid } from '../validation.js';
import type { AccountRole } from './admin.js';

/** The user as the API shows it: `_id`, `email`, `emailVerified`. */
export interface UserDto {
  _id: string;
  email: string;
  emailVerified: boolean;
  /** Absent in answers that predate roles; `admin` opens the admin area. */
  role?: AccountRole;
}

/** Settings' storage bar: bytes by kind against the quota in force (null: none). */
export interface StorageUsageDto {
  usedBytes: number;
  quotaBytes: number | null;
  bytes: { files: number; trash: number; versions: number };
}

export interface UserDetailedDto extends UserDto {
  createdAt: string;
  /** False for an account made by single sign-on that has not set a password (absent from older servers: true). */
  hasPassword?: boolean;
}

export interface LoginResponse {
  user: UserDto;
}

export interface CreateAccountResponse {
  user: UserDto;
  emailSent: boolean;
}

const password = z
  .string()
  .min(LIMITS.passwordMin, VALIDATION_MESSAGES.passwordTooShort)
  .max(LIMITS.passwordMax, VALIDATION_MESSAGES.passwordTooLong);

const email = z
  .string()
  .trim()
  .min(LIMITS.emailMin, VALIDATION_MESSAGES.emailTooShort)
  .max(LIMITS.emailMax, VALIDATION_MESSAGES.emailTooLong)
  .refine(isEmailFormatValid, VALIDATION_MESSAGES.emailInvalid);

/** Bounded so a megabyte of text is refused before any work is done with it. */
const anyPassword = z.string().min(1).max(LIMITS.passwordMax);
const anyEmail = z.string().trim().min(1).max(LIMITS.emailMax);
const token = z.string().min(1).max(512);

// Key order is the order the create-account form checks (password rules first, then e-mail): zod reports issues in it.
export const createAccountBody = z.object({
  password,
  email,
  /** The token of an invitation link: sign-up by invitation, the address taken as verified. */
  invitation: z.string().min(1).max(128).optional(),
});
export const loginBody = z.object({ email: anyEmail, password: anyPassword });
export const changePasswordBody = z.object({ oldPassword: anyPassword, newPassword: password });
export const verifyEmailBody = z.object({ emailToken: token });
export const sendPasswordResetBody = z.object({ email: anyEmail });
export const resetPasswordBody = z.object({ passwordToken: token, password });

export type CreateAccountBody = z.infer<typeof createAccountBody>;
export type LoginBody = z.infer<typeof loginBody>;
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

/** An app password as listed: never its secret, which is shown once, when it is made. */
export interface AppPasswordDto {
  id: string;
  name: string;
  /** ISO 8601. */
  createdAt: string;
  lastUsedAt: string | null;
}

export interface CreatedAppPasswordDto {
  id: string;
  name: string;
  /** The secret, shown this once. */
  password: string;
  createdAt: string;
}

/** What the device or app is called, e.g. "Laptop (rclone)". */
export const appPasswordBody = z.object({
  name: z
    .string()
    .max(100)
    .transform((v) => v.trim())
    .pipe(z.string().min(1, 'Please Enter a Name')),
});
