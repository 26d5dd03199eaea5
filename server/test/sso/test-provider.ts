import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ProviderAccount } from 'oidc-provider';

export interface ProviderUser {
  email?: string;
  email_verified?: boolean;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's users by subject: the test decides their claims. */
  users: Map<string, ProviderUser>;
  /**
   * Plays the user at the provider: follows `authorizationUrl` through its sign-in (as `subject`)
   * and consent pages, and answers the address the provider sends the browser back to.
   */
  signIn(authorizationUrl: string, subject: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 with one confidential client
 * (client_secret_basic) whose redirect is `redirectUri`; its development sign-in page takes any
 * login as the subject.
 */
export async function startTestProvider(redirectUri: string): Promise<TestProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server: Server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'nimbus';
  const clientSecret = 'nimbus-test-client-secret-0123456789';
  const users = new Map<string, ProviderUser>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: (_ctx: unknown, id: string): ProviderAccount => ({
      accountId: id,
      claims: () => ({ sub: id, ...users.get(id) }),
    }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-provider-cookie-key'] },
  });
  handle = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    users,
    async signIn(authorizationUrl, subject) {
      const jar = new Map<string, string>();
      let url = new URL(authorizationUrl);
      let form: URLSearchParams | null = null;
      for (let step = 0; step < 20; step++) {
        const response: Response = await fetch(url, {
          method: form ? 'POST' : 'GET',
          redirect: 'manual',
          headers: {
            cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
            ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          body: form,
        });
        form = null;
        for (const setCookie of response.headers.getSetCookie()) {
          const [pair = ''] = setCookie.split(';');
          const at = pair.indexOf('=');
          const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
          if (value === '' || /expires=Thu, 01 Jan 1970/i.test(setCookie)) jar.delete(name);
          else jar.set(name, value);
        }
        const location = response.headers.get('location');
        if (location) {
          url = new URL(location, url);
          if (url.origin !== issuer) return url;
          continue;
        }
        const html: string = await response.text();
        const prompt: string | undefined = /name="prompt" value="(\w+)"/.exec(html)?.[1];
        const action: string | undefined = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
        if (response.status !== 200 || !prompt || !action)
          throw new Error(`provider page ${response.status} at ${url.href}: ${html.slice(0, 500)}`);
        url = new URL(action.replace(/&amp;/g, '&'), url);
        form = new URLSearchParams(prompt === 'login' ? { prompt, login: subject, password: 'any' } : { prompt });
      }
      throw new Error('the provider never sent the browser back');
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
