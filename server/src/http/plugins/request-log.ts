import type { FastifyInstance, FastifyRequest } from 'fastify';

const REDACTED = '[redacted]';
/** A path parameter so named holds a secret: a link's token, an e-mailed one (`token`, `tempToken`). */
const SECRET_PARAM = /token$/i;
/** A query parameter whose name says it holds a token (`token`, `access_token`, `resetToken`). */
const SECRET_QUERY = /([?&][^=&#]*token[^=&#]*=)[^&#]*/gi;
/** The web app's pages that carry a token: the server has no route of its own for them. */
const TOKEN_PAGES = ['/s/:token', '/public-download/:id/:tempToken', '/reset-password/:token', '/verify-email/:token', '/invite/:token'];

interface TokenRoute {
  /** Each path segment of the route: its text, or null for a parameter. */
  segments: (string | null)[];
  /** Which of them are secrets. */
  secrets: number[];
}

function parseRoute(pattern: string): TokenRoute {
  const segments: (string | null)[] = [];
  const secrets: number[] = [];
  for (const segment of pattern.split('/')) {
    // Past a wildcard the segments of an address no longer line up with the route's.
    if (segment.includes('*')) break;
    const params = [...segment.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    if (params.some((name) => SECRET_PARAM.test(name))) secrets.push(segments.length);
    segments.push(params.length > 0 ? null : segment);
  }
  return { segments, secrets };
}

/**
 * Keeps link and e-mailed tokens out of logged addresses. The secrets are found from the routes
 * themselves, each parameter named like a token, so a new route needs no entry here; an address no
 * route matched (a page of the web app, a mistyped link) is redacted by every route it extends.
 */
export class UrlRedaction {
  /** Every route seen, by pattern; a route without a secret has none listed. */
  private readonly routes = new Map<string, TokenRoute>();
  private readonly tokenRoutes: TokenRoute[] = [];

  constructor(patterns: Iterable<string> = []) {
    for (const pattern of [...TOKEN_PAGES, ...patterns]) this.learn(pattern);
  }

  learn(pattern: string): void {
    if (this.routes.has(pattern)) return;
    const route = parseRoute(pattern);
    this.routes.set(pattern, route);
    if (route.secrets.length > 0) this.tokenRoutes.push(route);
  }

  /** Learns every route of the app as it is added. */
  watch(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => this.learn(route.url));
  }

  /** The address with its secrets replaced; `pattern` is the route that matched it, if any did. */
  redact(url: string, pattern?: string): string {
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    let query = queryAt < 0 ? '' : url.slice(queryAt);
    if (/token/i.test(query)) query = query.replace(SECRET_QUERY, `$1${REDACTED}`);
    const matched = pattern === undefined ? undefined : this.routes.get(pattern);
    if (matched && !pattern!.includes('*')) {
      return (matched.secrets.length > 0 ? hide(path.split('/'), matched.secrets).join('/') : path) + query;
    }
    const segments = path.split('/');
    for (const route of this.tokenRoutes) if (liesUnder(segments, route)) hide(segments, route.secrets);
    return segments.join('/') + query;
  }

  /** Fastify's request log line, with secrets in the URL replaced. */
  readonly serializeRequest = (request: FastifyRequest): Record<string, unknown> => ({
    method: request.method,
    url: this.redact(request.url, request.is404 ? undefined : request.routeOptions.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  });
}

function hide(segments: string[], secrets: number[]): string[] {
  for (const i of secrets) if (i < segments.length) segments[i] = REDACTED;
  return segments;
}

/** Whether an address lies at or under a route: its leading segments fit the route's. */
function liesUnder(segments: string[], route: TokenRoute): boolean {
  if (segments.length < route.segments.length) return false;
  return route.segments.every((s, i) => (s === null ? segments[i] !== '' : s === segments[i]));
}
