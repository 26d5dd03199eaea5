import { z } from 'zod';

/** What the security log records about an account (Settings → Recent activity). */
export const SECURITY_EVENT_TYPES = [
  'sign-in',
  'sign-in-failed',
  'sign-in-second-factor-failed',
  'two-factor-enabled',
  'two-factor-disabled',
  'recovery-codes-made',
  'recovery-code-used',
  'password-changed',
  'password-reset',
  'logout-all',
  'session-signed-out',
  'app-password-created',
  'app-password-revoked',
  'passkey-added',
  'passkey-renamed',
  'passkey-removed',
  'file-link-public',
  'file-link-one-time',
  'file-link-removed',
  'share-link-created',
  'share-link-updated',
  'share-link-revoked',
  'invitation-sent',
  'invitation-revoked',
  'account-created-by-invitation',
  'item-shared',
  'item-share-changed',
  'item-share-removed',
  'admin-account-disabled',
  'admin-account-enabled',
  'admin-quota-changed',
  'admin-role-changed',
  'admin-password-reset',
  'admin-two-factor-reset',
  'admin-account-deleted',
  'admin-settings-changed',
] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

export const ACTIVITY_LIMITS = {
  /** Events per page of `GET /user-service/activity`. */
  maxPageSize: 100,
  defaultPageSize: 50,
  /** The log keeps at most this many events per account… */
  keptPerAccount: 1_000,
  /** …and none older than this. */
  keptDays: 180,
} as const;

/** One event; `details` names what it was about (an app password, a file, a link's item). */
export interface ActivityEventDto {
  id: string;
  type: SecurityEventType;
  /** ISO 8601. */
  at: string;
  clientAddress: string | null;
  userAgent: string | null;
  details: {
    name?: string;
    itemType?: 'file' | 'folder';
    kind?: string;
    /** Item shares: the other account's e-mail. */
    recipient?: string;
  } | null;
}

export interface ActivityPageDto {
  events: ActivityEventDto[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export const activityQuery = z.strictObject({
  limit: z.coerce
    .number('limit must be a number')
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(ACTIVITY_LIMITS.maxPageSize, `limit must be at most ${ACTIVITY_LIMITS.maxPageSize}`)
    .default(ACTIVITY_LIMITS.defaultPageSize),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/, 'cursor is not one this server gave')
    .optional(),
});
export type ActivityQuery = z.infer<typeof activityQuery>;
