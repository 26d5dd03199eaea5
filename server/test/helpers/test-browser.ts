import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';

interface StoredCookie {
  value: string;
  path: string;
}

/** One browser: its own `uuid` header and cookie jar (paths honoured), talking to the app via inject. */
export class TestBrowser {
  readonly cookies = new Map<string, StoredCookie>();
  /** The client address the server sees. */
  remoteAddress = '127.0.0.1';

  constructor(
    private readonly app: FastifyInstance,
    readonly browserId: string = randomUUID(),
  ) {}

  async request(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    headers: Record<string, string | undefined> = {},
  ): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies]
      .filter(([, c]) => url.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
    // A header given as undefined is left out, e.g. `{ uuid: undefined }` for a request without a browser id.
    const merged: Record<string, string | undefined> = { uuid: this.browserId, ...(cookie ? { cookie } : {}), ...headers };
    const response = await this.app.inject({
      method,
      url,
      remoteAddress: this.remoteAddress,
      headers: Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });
    for (const c of response.cookies as { name: string; value: string; path?: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.value === '' || c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now());
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, { value: c.value, path: c.path ?? '/' });
    }
    return response;
  }

  get(url: string): Promise<LightMyRequestResponse> {
    return this.request('GET', url);
  }
  post(url: string, body?: unknown): Promise<LightMyRequestResponse> {
    return this.request('POST', url, body);
  }
  patch(url: string, body?: unknown): Promise<LightMyRequestResponse> {
    return this.request('PATCH', url, body);
  }
  delete(url: string, body?: unknown): Promise<LightMyRequestResponse> {
    return this.request('DELETE', url, body);
  }

  /** Creates an account and leaves this browser signed in to it. */
  async signUp(
    email = `user-${randomUUID()}@example.com`,
    password = 'correct horse',
  ): Promise<{ id: string; email: string; password: string }> {
    const response = await this.post('/user-service/create', { email, password });
    if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
    return { id: (response.json() as { user: { _id: string } }).user._id, email, password };
  }
}
