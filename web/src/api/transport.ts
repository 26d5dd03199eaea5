export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];
export type QueryParams = Record<string, QueryValue>;

/** One HTTP exchange as the client hands it to the transport: `data` is still the caller's value. */
export interface HttpRequest {
  method: string;
  url: string;
  params?: QueryParams;
  /** A plain value goes out as JSON; FormData as multipart. */
  data?: unknown;
  headers: Record<string, string>;
  signal?: AbortSignal;
  /** Asks for upload progress: the request then goes through XMLHttpRequest, which reports it. */
  onUploadProgress?: (event: { loaded: number; total?: number }) => void;
}

/** Any status resolves; only a failure to get an answer rejects. */
export interface HttpResponse<T = unknown> {
  status: number;
  data: T;
}

export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

/** `a=1&b=x`, arrays as repeated `key[]` items (what the server reads), empty values left out. */
export function urlWithParams(url: string, params: QueryParams = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value as readonly unknown[]) query.append(`${key}[]`, String(item));
    else query.append(key, String(value));
  }
  const text = query.toString();
  return text ? `${url}${url.includes('?') ? '&' : '?'}${text}` : url;
}

/** JSON when it parses, the text as is otherwise, undefined for an empty body. */
function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function encodeBody(request: HttpRequest): { body?: BodyInit; headers: Record<string, string> } {
  const { data, headers } = request;
  if (data === undefined) return { headers };
  if (data instanceof FormData || data instanceof Blob || typeof data === 'string') return { body: data, headers };
  return { body: JSON.stringify(data), headers: { ...headers, 'Content-Type': 'application/json' } };
}

function viaXhr(request: HttpRequest, url: string, body: BodyInit | undefined, headers: Record<string, string>): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const { signal, onUploadProgress } = request;
    if (signal?.aborted) return reject(new Error('canceled'));
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    xhr.open(request.method, url);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onUploadProgress)
      xhr.upload.onprogress = (e) => onUploadProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : undefined });
    xhr.onload = () => {
      signal?.removeEventListener('abort', abort);
      resolve({ status: xhr.status, data: parseBody(xhr.responseText) });
    };
    xhr.onerror = () => reject(new Error('Network Error'));
    xhr.onabort = () => reject(new Error('canceled'));
    signal?.addEventListener('abort', abort, { once: true });
    xhr.send((body as XMLHttpRequestBodyInit | undefined) ?? null);
  });
}

/** The browser's transport: fetch, or XMLHttpRequest where upload progress is asked for. */
export const browserTransport: Transport = async (request) => {
  const url = urlWithParams(request.url, request.params);
  const { body, headers } = encodeBody(request);
  if (request.onUploadProgress) return viaXhr(request, url, body, headers);
  const response = await fetch(url, { method: request.method, headers, body, credentials: 'include', signal: request.signal });
  return { status: response.status, data: parseBody(await response.text()) };
};
