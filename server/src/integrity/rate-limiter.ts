import { setTimeout as sleep } from 'node:timers/promises';

/** Credit kept for a burst after an idle spell (database queries between blobs, a slow disk). */
const MAX_CREDIT_MS = 1000;

/**
 * Paces reads to an average of `bytesPerSecond`, so a check or scrub leaves the disk (or the
 * S3 bill) to the users. One limiter spans a whole run, across blobs.
 */
export class RateLimiter {
  private startedAt = performance.now();
  private bytes = 0;

  constructor(private readonly bytesPerSecond: number | null) {
    if (bytesPerSecond !== null && !(bytesPerSecond > 0)) throw new RangeError('The rate must be a positive number of bytes per second');
  }

  async take(bytes: number, signal?: AbortSignal): Promise<void> {
    if (this.bytesPerSecond === null) return;
    const now = performance.now();
    const dueAt = this.startedAt + ((this.bytes + bytes) / this.bytesPerSecond) * 1000;
    if (now - dueAt > MAX_CREDIT_MS) {
      this.startedAt = now - MAX_CREDIT_MS;
      this.bytes = 0;
    }
    this.bytes += bytes;
    const wait = this.startedAt + (this.bytes / this.bytesPerSecond) * 1000 - now;
    if (wait > 1) await sleep(wait, undefined, { signal }).catch(() => undefined);
  }
}
