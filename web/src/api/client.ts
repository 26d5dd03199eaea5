import { TIMINGS, type ErrorCode } from '@nimbus/common';
import { ApiError, statusOf, toApiError } from './api-error';
import { getBrowserId } from './browser-id';
import { createSerializedRefresher } from './token-refresh';
import { browserTransport, type HttpRequest, type HttpResponse, type QueryParams, type Transport } from './transport';

export const GET_TOKEN_PATH = '/user-service/get-token';

/**
 * 401s that reject the credentials of the call itself rather than an expired session: a new access
 * token cannot change their outcome, and retrying a login would count twice against its throttle.
 */
const CREDENTIAL_CODES = new Set<ErrorCode | string>([
  'INVALID_CREDENTIALS',
  'WRONG_PASSWORD',
  'INVALID_TOKEN',
  'PASSWORD_REQUIRED',
  'INVALID_CODE',
  'INVALID_TICKET',
]);

/** What a call may add to its method, URL and body. */
export interface RequestOptions {
  params?: QueryParams;
  /** The body of a DELETE. */
  data?: unknown;
  signal?: AbortSignal;
  onUploadProgress?: HttpRequest['onUploadProgress'];
}

let transport: Transport = browserTransport;

/** Replaces what carries the requests (tests answer them without a network); returns the previous one. */
export function setTransport(next: Transport): Transport {
  const previous = transport;
  transport = next;
  return previous;
}

const expiryListeners = new Set<() => void>();

/** Calls `listener` whenever the server refuses to refresh the session (it ended or expired). */
export function onSessionExpired(listener: () => void): () => void {
  expiryListeners.add(listener);
  return () => expiryListeners.delete(listener);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function shouldRefresh(request: HttpRequest, response: HttpResponse): boolean {
  if (response.status !== 401 || request.url === GET_TOKEN_PATH) return false;
  const code = (response.data as { code?: unknown } | undefined)?.code;
  return !(typeof code === 'string' && CREDENTIAL_CODES.has(code));
}

async function exchange(request: HttpRequest): Promise<HttpResponse> {
  try {
    return await transport({ ...request, headers: { ...request.headers, uuid: getBrowserId() } });
  } catch (err) {
    throw err instanceof ApiError
      ? err
      : new ApiError(0, 'NETWORK_ERROR', err instanceof Error ? err.message : String(err), undefined, err);
  }
}

/** Sends once; a 401 of an expired session refreshes it, waits and sends once more. Non-2xx answers reject with ApiError. */
async function send<T>(request: HttpRequest): Promise<HttpResponse<T>> {
  let response = await exchange(request);
  if (shouldRefresh(request, response)) {
    const first = response;
    try {
      await refreshSession();
    } catch {
      throw toApiError(first);
    }
    await delay(TIMINGS.tokenRetryDelayMs);
    response = await exchange(request);
  }
  if (response.status >= 200 && response.status < 300) return response as HttpResponse<T>;
  throw toApiError(response);
}

function call<T>(method: string, url: string, data: unknown, options: RequestOptions = {}): Promise<HttpResponse<T>> {
  const { params, signal, onUploadProgress } = options;
  return send<T>({ method, url, params, data: data ?? options.data, signal, onUploadProgress, headers: { Accept: 'application/json' } });
}

/** The one HTTP client of the app: same origin, cookies, the `uuid` header and the 401 refresh-and-retry. */
export const http = {
  get: <T = unknown>(url: string, options?: RequestOptions) => call<T>('GET', url, undefined, options),
  delete: <T = unknown>(url: string, options?: RequestOptions) => call<T>('DELETE', url, undefined, options),
  post: <T = unknown>(url: string, data?: unknown, options?: RequestOptions) => call<T>('POST', url, data, options),
  patch: <T = unknown>(url: string, data?: unknown, options?: RequestOptions) => call<T>('PATCH', url, data, options),
  put: <T = unknown>(url: string, data?: unknown, options?: RequestOptions) => call<T>('PUT', url, data, options),
};

/** Rotates the session cookies; one refresh at a time per browser. */
export const refreshSession = createSerializedRefresher(async () => {
  try {
    await http.post(GET_TOKEN_PATH);
  } catch (err) {
    if (statusOf(err) === 401) expiryListeners.forEach((listener) => listener());
    throw err;
  }
});
