import { z } from 'zod';

/** How a session was signed in to. */
export type SessionSignInMethod = 'password' | 'passkey' | 'oidc';

/** A session in force, as Settings → Devices lists it. */
export interface SessionDto {
  id: string;
  /** e.g. "Chrome 131"; null when the user agent is unknown or says nothing of it. */
  browser: string | null;
  /** e.g. "Linux", "iOS 18.1"; null when unknown. */
  system: string | null;
  clientAddress: string | null;
  /** Null for sessions started before the server kept it. */
  signInMethod: SessionSignInMethod | null;
  /** ISO 8601: when it was signed in. */
  createdAt: string;
  /** ISO 8601, to the minute: its last refresh (an access token lasts a few minutes). */
  lastUsedAt: string;
  /** The session of the request that lists them. */
  current: boolean;
}

export const sessionIdParams = z.object({ id: z.string().min(1).max(64) });
