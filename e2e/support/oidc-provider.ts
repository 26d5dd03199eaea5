import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ProviderAccount } from 'oidc-provider';

export interface LocalProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's users by login: the spec decides their e-mail. */
  users: Map<string, { email: string; email_verified: boolean }>;
  /** Starts answering, for a client whose redirect is `redirectUri` (known once Nimbus runs). */
  serve(redirectUri: string): void;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 with its development sign-in and consent
 * pages, which take any login as the user's subject and any password.
 */
export async function startLocalProvider(): Promise<LocalProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'nimbus';
  const clientSecret = 'nimbus-e2e-client-secret-0123456789';
  const users = new Map<string, { email: string; email_verified: boolean }>();
  return {
    issuer,
    clientId,
    clientSecret,
    users,
    serve(redirectUri) {
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
        findAccount: (_ctx: unknown, id: string): ProviderAccount => ({ accountId: id, claims: () => ({ sub: id, ...users.get(id) }) }),
        features: { devInteractions: { enabled: true } },
        cookies: { keys: ['e2e-provider-cookie-key'] },
      });
      handle = provider.callback();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
