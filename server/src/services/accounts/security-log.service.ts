import { ACTIVITY_LIMITS, type ActivityEventDto, type SecurityEventType } from '@nimbus/common';
import type { EventPosition, SecurityEventRepository, SecurityEventRow } from '../../db/repositories/security-event.repository.js';
import { InvalidError } from '../../domain/errors.js';
import { newId } from '../../security/ids.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';

export type { SecurityEventRow } from '../../db/repositories/security-event.repository.js';

const DAY_MS = 24 * 60 * 60_000;
const MAX_NAME = 255;

export type SecurityEventDetails = NonNullable<ActivityEventDto['details']>;

export interface NewSecurityEvent {
  type: SecurityEventType;
  /** Where the request came from (sign-ins, password changes); omitted for events without one. */
  caller?: Caller;
  details?: SecurityEventDetails;
}

/** What services that cause security events depend on: recording only. */
export interface SecurityRecorder {
  record(accountId: string, event: NewSecurityEvent): Promise<void>;
}

export interface ActivityPage {
  events: SecurityEventRow[];
  nextCursor: string | null;
}

/** The cursor is opaque to clients: the position of the page's last event. */
function encodeCursor(row: SecurityEventRow): string {
  return Buffer.from(`${row.createdAt}.${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): EventPosition {
  const match = /^(\d{1,16})\.([0-9a-z]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new InvalidError('cursor is not one this server gave', [{ path: 'cursor', message: 'unknown cursor' }]);
  return { createdAt: Number(match[1]), id: match[2]! };
}

/**
 * Each account's security log: sign-ins (and failed ones), password and app-password changes,
 * sharing changes and logout-all, shown to the owner only. Bounded by `prune` (housekeeping).
 */
export class SecurityLogService implements SecurityRecorder {
  constructor(
    private readonly events: SecurityEventRepository,
    private readonly clock: Clock,
  ) {}

  async record(accountId: string, event: NewSecurityEvent): Promise<void> {
    const details = event.details && { ...event.details, ...(event.details.name ? { name: event.details.name.slice(0, MAX_NAME) } : {}) };
    await this.events.insert({
      id: newId(),
      accountId,
      type: event.type,
      createdAt: this.clock.now(),
      clientAddress: event.caller?.address ?? null,
      userAgent: event.caller?.userAgent ?? null,
      details: details ? JSON.stringify(details) : null,
    });
  }

  async list(accountId: string, query: { limit: number; cursor?: string }): Promise<ActivityPage> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    // One more than asked tells whether an older page exists without a count.
    const rows = await this.events.listOwned(accountId, query.limit + 1, after);
    const events = rows.slice(0, query.limit);
    return { events, nextCursor: rows.length > query.limit ? encodeCursor(events[events.length - 1]!) : null };
  }

  /** Keeps the newest events of each account, none older than the retention. */
  async prune(): Promise<number> {
    let deleted = await this.events.deleteOlderThan(this.clock.now() - ACTIVITY_LIMITS.keptDays * DAY_MS);
    for (const accountId of await this.events.accountsOver(ACTIVITY_LIMITS.keptPerAccount)) {
      deleted += await this.events.trimAccount(accountId, ACTIVITY_LIMITS.keptPerAccount);
    }
    return deleted;
  }
}
