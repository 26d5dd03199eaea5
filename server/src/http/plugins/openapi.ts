import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { ErrorCode } from '@nimbus/common';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { ACCESS_COOKIE } from '../cookies.js';
import { statusOf } from './error-handler.js';

declare module 'fastify' {
  interface FastifySchema {
    /** The error codes the route answers with; they become `response` entries, grouped by status. */
    errors?: readonly ErrorCode[];
  }
  interface FastifyInstance {
    /** Every route as it was added, with its schema: what the reference can describe. */
    apiRoutes: readonly ApiRoute[];
  }
}

export interface ApiRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
}

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PREFIX = '/api/docs';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Answers any route can give without naming them: a failure of the server or an outage of its
 * database or storage, and for a state-changing call the browser-id check and the JSON body parser
 * (malformed, or over the 1 MiB limit).
 */
function implicitCodes(route: RouteOptions): ErrorCode[] {
  const methods = ([] as string[]).concat(route.method);
  const changing = methods.some((method) => !SAFE_METHODS.has(method));
  const always: ErrorCode[] = ['INTERNAL', 'UNAVAILABLE'];
  if (!changing || route.config?.davRoute) return always;
  return ['MISSING_BROWSER_ID', 'VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', ...always];
}

/** The body of an error answer that carries one of these codes. */
export function errorBody(codes: readonly [ErrorCode, ...ErrorCode[]]) {
  return z.object({
    error: z.string().describe('A message for people; clients branch on `code`, never on this text.'),
    code: z.enum(codes),
    requestId: z.string(),
    details: z.unknown().optional(),
  });
}

interface ErrorEntry {
  description: string;
  content: { 'application/json': { schema: object } };
}

/**
 * Stands for `errorBody` of the entry's codes until the document is made. Every route has a few
 * error answers, and their zod schemas took about 6 MB of heap from start to exit while only the
 * document needs them; Fastify needs only a schema to be there (its serializer ignores it).
 */
const PENDING_ERROR_BODY = Object.freeze({});
const errorEntries = new Map<string, ErrorEntry>();
const codesOfEntry = new WeakMap<object, readonly [ErrorCode, ...ErrorCode[]]>();

/** One entry per list of codes, shared by the routes that answer with it. */
function errorEntry(codes: readonly [ErrorCode, ...ErrorCode[]]): ErrorEntry {
  const key = codes.join(' ');
  let entry = errorEntries.get(key);
  if (!entry) {
    entry = {
      description: `Error: ${codes.join(', ')} (see docs/errors.md)`,
      content: { 'application/json': { schema: PENDING_ERROR_BODY } },
    };
    errorEntries.set(key, entry);
    codesOfEntry.set(entry, codes);
  }
  return entry;
}

/** The `response` entries for error codes: one per status, listing its codes. */
export function errorResponses(codes: Iterable<ErrorCode>): Record<number, ErrorEntry> {
  const byStatus = new Map<number, Set<ErrorCode>>();
  for (const code of codes) {
    const status = statusOf(code);
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code));
  }
  const responses: Record<number, ErrorEntry> = {};
  for (const [status, set] of [...byStatus].sort(([a], [b]) => a - b))
    responses[status] = errorEntry([...set].sort() as [ErrorCode, ...ErrorCode[]]);
  return responses;
}

/** A route's schema as the document describes it: its error entries with their bodies' schemas. */
function withErrorBodies<T extends FastifySchema>(schema: T): T {
  const response = schema.response as Record<string, unknown> | undefined;
  if (!response) return schema;
  const described: Record<string, unknown> = {};
  for (const [status, entry] of Object.entries(response)) {
    const codes = typeof entry === 'object' && entry !== null ? codesOfEntry.get(entry) : undefined;
    described[status] = codes
      ? { description: (entry as ErrorEntry).description, content: { 'application/json': { schema: errorBody(codes) } } }
      : entry;
  }
  return { ...schema, response: described };
}

/** Twins of a route (its HEAD, its path with a trailing slash) share its schema object. */
const expanded = new WeakSet<FastifySchema>();

function expandErrors(route: RouteOptions): void {
  const schema = route.schema as FastifySchema | undefined;
  if (!schema || expanded.has(schema)) return;
  expanded.add(schema);
  const named = schema.errors ?? [];
  delete schema.errors;
  const response = { ...(schema.response as Record<string, unknown> | undefined) };
  const own = new Set(Object.keys(response));
  for (const code of named) {
    if (own.has(String(statusOf(code)))) throw new Error(`${route.url}: ${code} shares its status with an answer of the route`);
  }
  // An answer the route describes itself (health details' 503) stands for the implicit codes of its status.
  const implicit = implicitCodes(route).filter((code) => !own.has(String(statusOf(code))));
  for (const [status, entry] of Object.entries(errorResponses(new Set([...named, ...implicit])))) response[status] = entry;
  schema.response = response;
}

/**
 * The API reference, generated from the routes' own zod schemas: the OpenAPI document at
 * `/api/openapi.json` and a browsable page at `/api/docs`, both public since they describe the API
 * and hold no data. Register before any route, so every route is seen.
 *
 * Route schemas are for the document only: handlers validate with `parseInput` (and its
 * VALIDATION_FAILED answers), and answers are serialized as plain JSON with every field kept
 * (the compilers `buildApp` gives Fastify ignore the schemas).
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const toJsonSchema = createJsonSchemaTransform({ skipList: [] });
  const { version } = createRequire(import.meta.url)('../../../package.json') as { version: string };
  const routes: ApiRoute[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => {
    expandErrors(route);
    for (const method of ([] as string[]).concat(route.method))
      routes.push({ method, url: route.url, schema: route.schema as FastifySchema | undefined });
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Nimbus API',
        version,
        description:
          'The HTTP API of a Nimbus server. Sign in with `POST /user-service/login`: the answer sets the session cookies ' +
          'that authenticate later calls. Every state-changing call needs a `uuid` header (any stable browser id). ' +
          'Error answers carry a stable `code` (see docs/errors.md).',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: ACCESS_COOKIE, description: 'Set by login; refreshed with get-token' },
          bearer: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN or HEALTH_TOKEN of the server' },
          appPassword: { type: 'http', scheme: 'basic', description: 'The account e-mail and an app password' },
        },
      },
      tags: [
        { name: 'users', description: 'Accounts, sessions and app passwords' },
        { name: 'passkeys', description: 'Passkeys (WebAuthn): adding them, and signing in with one' },
        { name: 'files', description: 'Files in the drive' },
        { name: 'folders', description: 'Folders in the drive' },
        {
          name: 'versions',
          description: 'Earlier contents of files: listing, downloading, restoring and deleting them (see docs/versions.md)',
        },
        { name: 'uploads', description: 'Multipart and resumable (tus) uploads' },
        { name: 'sharing', description: 'Shared items and share links' },
        { name: 'public', description: 'What a visitor holding a share link can do' },
        { name: 'media', description: 'Thumbnails, previews and streams' },
        { name: 'search', description: 'Search' },
        { name: 'people', description: "People in the caller's own photos (see docs/people.md)" },
        { name: 'webdav', description: 'WebDAV (see docs/webdav.md)' },
        { name: 'health', description: 'Health and monitoring' },
        { name: 'meta', description: 'This reference' },
      ],
    },
    transform: (document) => toJsonSchema({ ...document, schema: document.schema && withErrorBodies(document.schema) }),
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    // The validator badge would load an image from another site.
    validatorUrl: false,
    uiConfig: { deepLinking: true },
  });

  app.get(
    OPENAPI_PATH,
    {
      schema: {
        summary: 'This API reference as an OpenAPI 3.1 document',
        tags: ['meta'],
        response: { 200: z.looseObject({ openapi: z.string() }) },
      },
    },
    async () => app.swagger(),
  );
}
