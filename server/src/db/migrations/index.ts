import type { Migration } from 'kysely';
import * as accountsAndSessions from './2026_11_21_0001_accounts_and_sessions.js';

/** Forward-only, applied in name order; append new ones at the end. */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_accounts_and_sessions': accountsAndSessions,
};
