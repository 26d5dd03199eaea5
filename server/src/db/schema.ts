/**
 * Table types. Columns are snake_case in SQL and camelCase here (CamelCasePlugin).
 * Timestamps are epoch milliseconds and flags are 0/1 integers, so one set of queries
 * runs unchanged on SQLite and PostgreSQL.
 */
export interface AccountTable {
  id: string;
  email: string;
  /** Lower-cased e-mail: the unique, case-insensitive identity. */
  emailKey: string;
  passwordHash: string;
  emailVerified: number;
  verifyEmailSentAt: number | null;
  resetEmailSentAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface SessionTable {
  id: string;
  accountId: string;
  browserId: string;
  refreshHash: string;
  /** Hash of the refresh token this one replaced: presenting it again means theft. */
  previousRefreshHash: string | null;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

export type AccountTokenPurpose = 'verify-email' | 'reset-password';

export interface AccountTokenTable {
  tokenHash: string;
  accountId: string;
  purpose: AccountTokenPurpose;
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

export interface LoginThrottleTable {
  emailKey: string;
  failures: number;
  windowStartedAt: number;
  lockedUntil: number | null;
}

export interface Database {
  account: AccountTable;
  session: SessionTable;
  accountToken: AccountTokenTable;
  loginThrottle: LoginThrottleTable;
}
