/**
 * A WebDAV answer other than success: the status, a message for people and, where RFC 4918 names
 * one, the precondition element (`propfind-finite-depth`, `lock-token-submitted`…) for clients.
 */
export class DavError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly condition?: string,
  ) {
    super(message);
  }
}
