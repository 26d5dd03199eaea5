import { NotFoundError } from '../../domain/errors.js';
import type { Caller } from '../caller.js';
import type { SecurityRecorder } from './security-log.service.js';
import type { ListedSessionRow, SessionService } from './session.service.js';
import { describeUserAgent, deviceLabel, type DeviceDescription } from './user-agent.js';

/** A session in force with what its user agent says, and whether it is the caller's own. */
export interface DeviceSession extends ListedSessionRow, DeviceDescription {
  current: boolean;
}

/**
 * Settings → Devices: the account's sessions in force, each of which can be signed out alone
 * (its very next request answers 401, as after logout).
 */
export class DevicesService {
  constructor(
    private readonly sessions: SessionService,
    private readonly security: SecurityRecorder | null = null,
  ) {}

  async list(accountId: string, currentSessionId: string): Promise<DeviceSession[]> {
    const rows = await this.sessions.listActive(accountId);
    return rows.map((row) => ({ ...row, ...describeUserAgent(row.userAgent), current: row.id === currentSessionId }));
  }

  /** Another account's session, or one already ended, is not found: ids tell nothing of other accounts. */
  async signOut(accountId: string, sessionId: string, caller: Caller): Promise<void> {
    const ended = await this.sessions.endOfAccount(accountId, sessionId);
    if (!ended) throw new NotFoundError('SESSION_NOT_FOUND', 'Session not found');
    const name = deviceLabel(describeUserAgent(ended.userAgent));
    await this.security?.record(accountId, { type: 'session-signed-out', caller, details: { name } });
  }
}
