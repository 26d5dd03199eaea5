import type { Logger } from '../logger.js';

/**
 * Who made a request, as services see it (they never see the request itself): the client's
 * address and user agent for the security log, and the request's own logger, so that what a
 * service logs while serving it carries the request id.
 */
export interface Caller {
  address: string;
  userAgent: string | null;
  /** The refresh token the request carries, if any: a sign-in from a device already signed in. Never logged. */
  refreshToken?: string;
  log?: Logger;
}
