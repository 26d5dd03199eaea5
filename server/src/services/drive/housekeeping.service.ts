import { LIMITS } from '@nimbus/common';
import type { AccountTokenRepository } from '../../db/repositories/account-token.repository.js';
import type { InvitationRepository } from '../../db/repositories/invitation.repository.js';
import type { LoginThrottleRepository } from '../../db/repositories/login-throttle.repository.js';
import type { SessionRepository } from '../../db/repositories/session.repository.js';
import type { Clock } from '../clock.js';

/** Revoked sessions are kept a day so a replayed refresh token still reads as theft meanwhile. */
const KEEP_REVOKED_MS = 24 * 60 * 60_000;
const THROTTLE_WINDOW_MS = Math.max(60 * 60_000, LIMITS.loginFailureWindowMs, LIMITS.loginLockMs);
/** Expired invitations stay listed (as expired) this long, then go. */
const KEEP_EXPIRED_INVITATIONS_MS = 30 * 24 * 60 * 60_000;

export interface HousekeepingResult {
  sessions: number;
  tokens: number;
  throttles: number;
  invitations: number;
}

/** Removes rows that can never be used again, so the tables do not grow without bound. */
export class HousekeepingService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly tokens: AccountTokenRepository,
    private readonly throttles: LoginThrottleRepository,
    private readonly clock: Clock,
    private readonly invitations: InvitationRepository,
  ) {}

  async purge(): Promise<HousekeepingResult> {
    const now = this.clock.now();
    return {
      sessions: await this.sessions.deleteDead(now, KEEP_REVOKED_MS),
      tokens: await this.tokens.deleteSpent(now),
      // The longest window in use: the hourly limits on sign-ups and password resets.
      throttles: await this.throttles.deleteStale(now, THROTTLE_WINDOW_MS),
      invitations: await this.invitations.deleteExpired(now - KEEP_EXPIRED_INVITATIONS_MS),
    };
  }
}
