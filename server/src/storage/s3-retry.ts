import { StorageUnavailableError, isNetworkFailure } from './storage-errors.js';

export interface S3RetryPolicy {
  /** Tries per request, the first included. */
  maxAttempts?: number;
  /** Delay before the first retry; each later one doubles it, up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

const DEFAULT_BASE_DELAY_MS = 200;
const DEFAULT_MAX_DELAY_MS = 5_000;

/**
 * Exponential back-off with jitter: between half and all of base × 2^(attempt − 2), so servers
 * throttling many clients see their retries spread out rather than arrive together.
 * `attempt` is the number of the try about to be made (2 for the first retry).
 */
export function s3BackoffDelay(attempt: number, policy: S3RetryPolicy = {}): number {
  const base = policy.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const ceiling = Math.min(policy.maxDelayMs ?? DEFAULT_MAX_DELAY_MS, base * 2 ** Math.max(0, attempt - 2));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** What the SDK's errors carry: the service's fault or a status code, never to be read from text. */
interface SdkErrorShape {
  $fault?: 'client' | 'server';
  $metadata?: { httpStatusCode?: number };
  name?: string;
}

/**
 * An S3 failure that outlasted the retries: the service's side (5xx, throttling), a broken or
 * refused connection, or a timeout is "unavailable for now"; anything else passes unchanged.
 */
export function s3Failure(err: unknown): unknown {
  const shape = (err ?? {}) as SdkErrorShape;
  const status = shape.$metadata?.httpStatusCode;
  const isServerSide = shape.$fault === 'server' || (status !== undefined && status >= 500);
  const isThrottled = status === 429 || shape.name === 'SlowDown' || shape.name === 'ThrottlingException';
  const isTimeout = shape.name === 'TimeoutError';
  return isServerSide || isThrottled || isTimeout || isNetworkFailure(err) ? new StorageUnavailableError(err) : err;
}
