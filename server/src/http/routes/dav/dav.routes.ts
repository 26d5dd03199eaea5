import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DavError } from '../../../domain/dav-error.js';
import { DAV_METHODS, errorBody, type DavServer } from '../../../dav/dav-server.js';
import { DomainError, TooManyError, UnavailableError } from '../../../domain/errors.js';
import type { AccountService } from '../../../services/accounts/account.service.js';
import type { AppPasswordService } from '../../../services/accounts/app-password.service.js';
import { callerOf } from '../../caller.js';
import { hashToken } from '../../../security/ids.js';
import { z } from 'zod';
import { sendStoredFile } from '../../send-stored-file.js';
import { statusOf } from '../../plugins/error-handler.js';

export interface DavRoutesDeps {
  dav: DavServer;
  accounts: AccountService;
  appPasswords: AppPasswordService;
}

const REALM = 'Basic realm="Nimbus", charset="UTF-8"';
/** Methods Fastify does not know by itself, and whether their requests carry a body. */
const EXTRA_METHODS: [string, boolean][] = [
  ['PROPFIND', true],
  ['PROPPATCH', true],
  ['MKCOL', true],
  ['COPY', false],
  ['MOVE', false],
  ['LOCK', true],
  ['UNLOCK', false],
];

/** How a domain failure reads in WebDAV: a full drive is 507, a bad move 403 (RFC 4918 §9.9.4). */
function davStatusOf(error: DomainError): number {
  switch (error.code) {
    case 'QUOTA_EXCEEDED':
      return 507;
    case 'INVALID_MOVE':
    case 'FOLDER_TOO_DEEP':
      return 403;
    case 'FILE_NOT_FOUND':
    case 'FOLDER_NOT_FOUND':
      return 409;
    default:
      return statusOf(error.code);
  }
}

/** Methods that may store a content: it is recorded as come through the app password signed in with. */
const STORING_METHODS = new Set(['PUT', 'COPY', 'LOCK']);

/** The name of the account's app password `password` (already verified): who stored a content, as its owner sees it. */
async function appPasswordName(appPasswords: AppPasswordService, accountId: string, password: string): Promise<string | null> {
  const secretHash = hashToken(password);
  return (await appPasswords.list(accountId)).find((p) => p.secretHash === secretHash)?.name ?? null;
}

function credentialsOf(header: string | undefined): { email: string; password: string } | null {
  const m = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { email: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * WebDAV at `/dav/`: the signed-in account's drive, for Finder, Explorer, GNOME Files, rclone and
 * phone apps. Only app passwords open it (HTTP Basic with the account e-mail), never the account
 * password, so 2FA or a password change never breaks a device and each device is revoked alone.
 */
export function davRoutes(app: FastifyInstance, deps: DavRoutesDeps): void {
  for (const [method, hasBody] of EXTRA_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody });
  }

  void app.register(async (scope) => {
    // Bodies (uploads, XML) are read by the handler as streams, whatever their type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    const fail = (reply: FastifyReply, error: DavError, headers: Record<string, string> = {}) =>
      reply
        .status(error.status)
        .headers({ 'content-type': 'application/xml; charset=utf-8', ...headers })
        .send(errorBody(error));

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      void reply.header('cache-control', 'private, no-store');
      // A browser that once signed in here replays Basic credentials on its own: refuse requests
      // another site made it send.
      const site = request.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        return fail(reply, new DavError(403, 'Cross-site WebDAV requests are refused'));
      }
      const dav = deps.dav;
      if (request.method === 'OPTIONS' && !request.headers.authorization) {
        const answer = dav.options_();
        return answer.kind === 'reply'
          ? reply
              .status(answer.status)
              .headers(answer.headers ?? {})
              .send()
          : reply.send();
      }
      try {
        const credentials = credentialsOf(request.headers.authorization);
        if (!credentials) throw new DavError(401, 'Sign in with your e-mail and an app password');
        let ownerId: string;
        try {
          const account = await deps.accounts.verifyAppCredentials(credentials.email, credentials.password, callerOf(request), (id, pw) =>
            deps.appPasswords.verify(id, pw),
          );
          ownerId = account.id;
        } catch (err) {
          if (err instanceof TooManyError) {
            void reply.header('retry-after', String(err.retryAfterSeconds));
            throw new DavError(429, err.message);
          }
          // A database outage is no wrong password: a 401 would make the client ask the user again.
          if (err instanceof UnavailableError) throw err;
          throw new DavError(401, 'Wrong e-mail or app password');
        }
        const answer = await dav.handle(ownerId, {
          method: request.method,
          url: request.raw.url ?? request.url,
          header: (name) => {
            const value = request.headers[name];
            return Array.isArray(value) ? value.join(', ') : value;
          },
          body: request.raw,
          hosts: [request.headers.host ?? '', request.host],
          via: STORING_METHODS.has(request.method) ? await appPasswordName(deps.appPasswords, ownerId, credentials.password) : null,
        });
        if (answer.kind === 'file') {
          return sendStoredFile(request, reply, answer.asset, (range) => answer.asset.open(range), {
            disposition: 'attachment',
            etag: answer.etag,
          });
        }
        void reply.status(answer.status).headers(answer.headers ?? {});
        return reply.send(answer.body ?? '');
      } catch (err) {
        if (err instanceof DavError) {
          if (err.status === 401) return fail(reply, err, { 'www-authenticate': REALM });
          return fail(reply, err);
        }
        if (err instanceof DomainError) return fail(reply, new DavError(davStatusOf(err), err.message));
        throw err;
      }
    };

    // Only PUT streams a body that may take hours; the XML bodies of the others are small, so a
    // client trickling one is cut off like any other slow request.
    const xmlMethods = DAV_METHODS.filter((m) => m !== 'PUT');
    // OpenAPI names only HTTP's own methods: WebDAV's (PROPFIND, MKCOL, …) are hidden from it and
    // named in the description of the others.
    const openApiMethods = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
    const schemaOf = (summary: string, hide = false) => ({
      summary,
      description: `WebDAV (RFC 4918) for desktop and phone clients; see docs/webdav.md. Methods: ${DAV_METHODS.join(', ')}.`,
      tags: ['webdav'],
      security: [{ appPassword: [] }],
      ...(hide ? { hide } : {}),
      response: {
        '2xx': { description: 'The WebDAV answer: XML for PROPFIND and LOCK, bytes for GET', content: { '*/*': { schema: z.string() } } },
        '4xx': {
          description: 'A WebDAV error: an XML body; 401 asks for Basic credentials',
          content: { 'application/xml': { schema: z.string() } },
        },
      },
    });
    for (const url of ['/dav', '/dav/*']) {
      scope.route({ method: 'PUT', url, handler, config: { streamsBody: true, davRoute: true }, schema: schemaOf('WebDAV: store a file') });
      scope.route({
        method: xmlMethods.filter((m) => openApiMethods.has(m)),
        url,
        handler,
        config: { davRoute: true },
        schema: schemaOf('WebDAV: read, delete or ask the options of a file or folder'),
      });
      scope.route({
        method: xmlMethods.filter((m) => !openApiMethods.has(m)),
        url,
        handler,
        config: { davRoute: true },
        schema: schemaOf('WebDAV: properties, folders, copies, moves and locks', true),
      });
    }
  });
}
