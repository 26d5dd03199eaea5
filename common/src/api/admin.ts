import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { isEmailFormatValid, VALIDATION_MESSAGES } from '../validation.js';
import { id } from './shared.js';

/**
 * The admin area (`/admin`, `/admin-service/...`). An administrator sees accounts, counts and
 * sizes, never another account's file names or contents.
 */
export const ACCOUNT_ROLES = ['admin', 'user'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
export const ACCOUNT_STATUSES = ['active', 'invited', 'disabled'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export const SIGNUP_MODES = ['open', 'invite', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

export const ADMIN_LIMITS = {
  usersPageMax: 200,
  usersPageDefault: 50,
  invitationDays: 7,
  maxTrashRetentionDays: 3650,
} as const;

/** One account as the admin area lists it. */
export interface AdminUserDto {
  id: string;
  email: string;
  role: AccountRole;
  status: AccountStatus;
  /** ISO 8601. */
  createdAt: string;
  lastActiveAt: string | null;
  /** Bytes of its files, trash included. */
  usedBytes: number;
  files: number;
  /** The quota in force (its own, else the server's default); null for none. */
  quotaBytes: number | null;
  /** Whether the quota is the account's own rather than the default. */
  customQuota: boolean;
  twoFactor: boolean;
}

export interface AdminUserPage {
  users: AdminUserDto[];
  total: number;
  offset: number;
  limit: number;
}

export const ADMIN_USER_SORTS = ['email', 'createdAt', 'lastActiveAt', 'usedBytes', 'files'] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];

export const adminUsersQuery = z.object({
  search: z.string().max(LIMITS.emailMax).optional(),
  sort: z.enum(ADMIN_USER_SORTS).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('asc'),
  offset: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(ADMIN_LIMITS.usersPageMax).default(ADMIN_LIMITS.usersPageDefault),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuery>;

const quotaBytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable();

/** Changes to an account; `quotaBytes: null` puts it back on the server's default. */
export const updateAdminUserBody = z
  .object({ disabled: z.boolean().optional(), quotaBytes: quotaBytes.optional(), role: z.enum(ACCOUNT_ROLES).optional() })
  .strict();
export type UpdateAdminUserBody = z.infer<typeof updateAdminUserBody>;

/** Deleting an account is confirmed by typing its e-mail. */
export const deleteAdminUserBody = z.object({ confirmEmail: z.string().max(LIMITS.emailMax) });

export const adminUserParams = z.object({ id });

export interface ServerSettingsDto {
  signup: SignupMode;
  /** Quota of accounts without their own; null for none. */
  defaultQuotaBytes: number | null;
  trashRetentionDays: number;
  /** Whether accounts that are not administrators may invite people. */
  usersMayInvite: boolean;
  /** Every account must sign in with a second factor; one without sets it up at its next sign-in. */
  requireTwoFactor?: boolean;
}

export const updateServerSettingsBody = z
  .object({
    signup: z.enum(SIGNUP_MODES).optional(),
    defaultQuotaBytes: quotaBytes.optional(),
    trashRetentionDays: z.number().int().min(0).max(ADMIN_LIMITS.maxTrashRetentionDays).optional(),
    usersMayInvite: z.boolean().optional(),
    requireTwoFactor: z.boolean().optional(),
  })
  .strict();
export type UpdateServerSettingsBody = z.infer<typeof updateServerSettingsBody>;

export interface AdminOverviewDto {
  accounts: { total: number; active: number; disabled: number; admins: number; invitationsPending: number };
  files: number;
  folders: number;
  /** `renditions`: the playable copies of videos browsers cannot play as stored. */
  bytes: { files: number; trash: number; thumbnails: number; versions: number; renditions: number };
  /** Of the file store's volume; null when it cannot be read (an S3 bucket). */
  disk: { freeBytes: number; totalBytes: number } | null;
  jobs: { queued: number; running: number; failed: number };
  /** The integrity scrub: null when it is off. */
  scrub: { phase: string; updatedAt: string } | null;
  /** The image–text model of AI search, fetched on first use; until it is ready search uses the bundled pipeline. */
  model: AdminModelStatusDto;
  version: string;
}

export const MODEL_STATES = ['off', 'missing', 'downloading', 'ready', 'failed'] as const;

export interface AdminModelStatusDto {
  /** Such as `Xenova/clip-vit-base-patch32`; null when turned off (SMART_SEARCH_MODEL=off). */
  name: string | null;
  state: (typeof MODEL_STATES)[number];
  bytesDone: number;
  bytesTotal: number;
  /** Why the last download or check failed. */
  error: string | null;
}

/** A password reset an administrator started: the link too when no e-mail could carry it. */
export interface AdminPasswordResetDto {
  emailSent: boolean;
  link: string | null;
}

// Invitations (`/invitation-service/...`).

export interface InvitationDto {
  id: string;
  email: string;
  /** Who invited; null when that account is gone. */
  invitedBy: string | null;
  createdAt: string;
  sentAt: string | null;
  expiresAt: string;
  status: 'pending' | 'accepted' | 'expired' | 'revoked';
}

/** A new (or resent) invitation: its link is shown when the mail did not go out. */
export interface CreatedInvitationDto {
  invitation: InvitationDto;
  emailSent: boolean;
  /** `{APP_URL}/invite/{token}`; null when the mail carried it. */
  link: string | null;
}

export const inviteBody = z.object({
  email: z
    .string()
    .trim()
    .min(LIMITS.emailMin, VALIDATION_MESSAGES.emailTooShort)
    .max(LIMITS.emailMax, VALIDATION_MESSAGES.emailTooLong)
    .refine(isEmailFormatValid, VALIDATION_MESSAGES.emailInvalid),
});

/** What the sign-up page shows for an invitation link (public). */
export interface InvitationPreviewDto {
  email: string;
  expiresAt: string;
}

export const invitationTokenParams = z.object({ token: z.string().min(1).max(128) });
