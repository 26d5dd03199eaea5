import { TIMINGS, type ErrorCode } from '@nimbus/common';
import axios, { type InternalAxiosRequestConfig } from 'axios';
import { statusOf, toApiError } from './api-error';
import { getBrowserId } from './browser-id';
import { createSerializedRefresher } from './token-refresh';

export const GET_TOKEN_PATH = '/user-service/get-token';

/**
 * 401s that reject the credentials of the call itself rather than an expired session: a new access
 * token cannot change their outcome, and retrying a login would count twice against its throttle.
 */
const CREDENTIAL_CODES = new Set<ErrorCode | string>(['INVALID_CREDENTIALS', 'WRONG_PASSWORD', 'INVALID_TOKEN', 'PASSWORD_REQUIRED']);

interface RetryConfig extends InternalAxiosRequestConfig {
  _retry?: boolean;
}

/** The one HTTP client of the app: same origin, cookies, the `uuid` header and the 401 refresh-and-retry. */
export const http = axios.create({ withCredentials: true, headers: { Accept: 'application/json' } });

http.interceptors.request.use((config) => {
  config.headers.set('uuid', getBrowserId());
  return config;
});

const expiryListeners = new Set<() => void>();

/** Calls `listener` whenever the server refuses to refresh the session (it ended or expired). */
export function onSessionExpired(listener: () => void): () => void {
  expiryListeners.add(listener);
  return () => expiryListeners.delete(listener);
}

/** Rotates the session cookies; one refresh at a time per browser. */
export const refreshSession = createSerializedRefresher(async () => {
  try {
    await http.post(GET_TOKEN_PATH);
  } catch (err) {
    if (statusOf(err) === 401) expiryListeners.forEach((listener) => listener());
    throw err;
  }
});

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function shouldRefresh(error: unknown, config: RetryConfig | undefined): config is RetryConfig {
  if (!axios.isAxiosError(error) || !config || config._retry) return false;
  if (error.response?.status !== 401 || config.url === GET_TOKEN_PATH) return false;
  const code = (error.response.data as { code?: unknown } | undefined)?.code;
  return !(typeof code === 'string' && CREDENTIAL_CODES.has(code));
}

http.interceptors.response.use(undefined, async (error: unknown) => {
  const config = axios.isAxiosError(error) ? (error.config as RetryConfig | undefined) : undefined;
  if (!shouldRefresh(error, config)) throw toApiError(error);
  config._retry = true;
  try {
    await refreshSession();
  } catch {
    throw toApiError(error);
  }
  await delay(TIMINGS.tokenRetryDelayMs);
  return http.request(config);
});
