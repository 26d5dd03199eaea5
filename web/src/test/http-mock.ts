import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { http } from '../api/client';

export interface MockResponse {
  status: number;
  data?: unknown;
}
type Reply = MockResponse | ((request: RecordedRequest) => MockResponse | Promise<MockResponse>);

export interface RecordedRequest {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, unknown>;
  /** Query parameters given to axios as `params`. */
  params: Record<string, unknown>;
}

interface Route {
  method: string;
  url: string;
  replies: Reply[];
}

let routes: Route[] = [];
export const requests: RecordedRequest[] = [];

function parseBody(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** The adapter under the app's axios instance: answers from the registered routes and records every request. */
async function adapter(config: InternalAxiosRequestConfig): Promise<AxiosResponse> {
  const request: RecordedRequest = {
    method: (config.method ?? 'get').toUpperCase(),
    url: config.url ?? '',
    body: parseBody(config.data),
    headers: AxiosHeaders.from(config.headers).toJSON(),
    params: (config.params ?? {}) as Record<string, unknown>,
  };
  requests.push(request);
  const route = routes.find((r) => r.method === request.method && r.url === request.url);
  if (!route) throw new Error(`Unexpected request ${request.method} ${request.url}`);
  const next = route.replies.length > 1 ? route.replies.shift()! : route.replies[0]!;
  const reply = typeof next === 'function' ? await next(request) : next;
  const response: AxiosResponse = {
    data: reply.data,
    status: reply.status,
    statusText: String(reply.status),
    headers: {},
    config,
    request: {},
  };
  if (reply.status >= 200 && reply.status < 300) return response;
  throw new AxiosError(`Request failed with status code ${reply.status}`, AxiosError.ERR_BAD_REQUEST, config, {}, response);
}

export function resetHttpMock(): void {
  routes = [];
  requests.length = 0;
  http.defaults.adapter = adapter;
}

/** Answers `method url` with the replies in turn; the last one repeats. */
export function onRequest(method: string, url: string, ...replies: Reply[]): void {
  routes = routes.filter((r) => !(r.method === method && r.url === url));
  routes.push({ method, url, replies });
}

export function errorBody(code: string, error = code): { error: string; code: string; requestId: string } {
  return { error, code, requestId: 'test' };
}

export const requestsTo = (method: string, url: string) => requests.filter((r) => r.method === method && r.url === url);

/** A reply that stays pending until `release` is called. */
export function deferredReply(reply: MockResponse): { reply: () => Promise<MockResponse>; release: () => void } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { reply: () => gate.then(() => reply), release };
}
