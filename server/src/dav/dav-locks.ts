/** Longest lock a client gets; `Infinite` asks get this. Clients refresh long before. */
export const MAX_LOCK_SECONDS = 7 * 24 * 3600;
const DEFAULT_LOCK_SECONDS = 3600;

/** `Timeout: Second-600, Infinite` → the first value we accept, bounded. */
export function parseTimeout(header: string | undefined): number {
  if (!header) return DEFAULT_LOCK_SECONDS;
  for (const part of header.split(',')) {
    const value = part.trim();
    if (/^infinite$/i.test(value)) return MAX_LOCK_SECONDS;
    const m = /^second-(\d{1,12})$/i.exec(value);
    if (m) return Math.max(1, Math.min(Number(m[1]), MAX_LOCK_SECONDS));
  }
  return DEFAULT_LOCK_SECONDS;
}
