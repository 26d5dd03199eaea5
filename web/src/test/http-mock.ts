import { setTransport } from '../api/client';
import type { HttpRequest, HttpResponse } from '../api/transport';

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
  /** Query parameters as the call gave them (`params`). */
  params: Record<string, unknown>;
}

interface Route {
  method: string;
  url: string;
  replies: Reply[];
}

let routes: Route[] = [];
export const requests: RecordedRequest[] = [];

/** The transport under the app's HTTP client: answers from the registered routes and records every request. */
async function transport(config: HttpRequest): Promise<HttpResponse> {
  const request: RecordedRequest = {
    method: config.method,
    url: config.url,
    body: config.data,
    headers: { ...config.headers },
    params: { ...config.params },
  };
  requests.push(request);
  const route = routes.find((r) => r.method === request.method && r.url === request.url);
  if (!route) throw new Error(`Unexpected request ${request.method} ${request.url}`);
  const next = route.replies.length > 1 ? route.replies.shift()! : route.replies[0]!;
  const reply = typeof next === 'function' ? await next(request) : next;
  return { status: reply.status, data: reply.data };
}

export function resetHttpMock(): void {
  routes = [];
  requests.length = 0;
  setTransport(transport);
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
