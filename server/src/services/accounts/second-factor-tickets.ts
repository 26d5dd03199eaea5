import type { TwoFactorRepository } from '../../db/repositories/two-factor.repository.js';
import type { SecondFactorTicketPurpose } from '../../db/schema.js';
import { UnauthorizedError } from '../../domain/errors.js';
import { hashToken, newSecret } from '../../security/ids.js';
import type { Clock } from '../clock.js';

/** How long a password sign-in waits for its second step. */
export const SECOND_FACTOR_TICKET_MS = 5 * 60_000;

function browserKeyOf(browserId: string): string {
  return hashToken(`ticket-browser:${browserId}`);
}

/**
 * The tickets of sign-ins that passed the password and wait for a second factor: random, kept only
 * as hashes, bound to the browser that got them, five minutes long and single-use. A ticket
 * proves the password, never the account: it opens nothing but the second step.
 */
export class SecondFactorTickets {
  constructor(
    private readonly repository: TwoFactorRepository,
    private readonly clock: Clock,
  ) {}

  async issue(accountId: string, browserId: string, purpose: SecondFactorTicketPurpose = 'sign-in'): Promise<string> {
    const now = this.clock.now();
    await this.repository.deleteExpiredTickets(now);
    const ticket = newSecret();
    await this.repository.insertTicket({
      ticketHash: hashToken(ticket),
      accountId,
      browserKey: browserKeyOf(browserId),
      purpose,
      expiresAt: now + SECOND_FACTOR_TICKET_MS,
    });
    return ticket;
  }

  /** The ticket's account, leaving the ticket in place (for a code that may still be wrong). */
  async peek(ticket: string, browserId: string, purpose: SecondFactorTicketPurpose = 'sign-in'): Promise<string> {
    const row = await this.repository.findTicket(hashToken(ticket));
    if (!row || row.browserKey !== browserKeyOf(browserId) || row.purpose !== purpose || row.expiresAt <= this.clock.now()) throw invalid();
    return row.accountId;
  }

  /** The ticket's account; the ticket is spent, so a second call with it fails. */
  async consume(ticket: string, browserId: string, purpose: SecondFactorTicketPurpose = 'sign-in'): Promise<string> {
    const accountId = await this.repository.takeTicket(hashToken(ticket), browserKeyOf(browserId), purpose, this.clock.now());
    if (accountId === null) throw invalid();
    return accountId;
  }
}

function invalid(): UnauthorizedError {
  return new UnauthorizedError('INVALID_TICKET', 'This sign-in has expired; sign in again');
}
