import { ERROR_CODES } from '@nimbus/common';
import { validate } from '@readme/openapi-parser';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { statusOf } from '../../src/http/plugins/error-handler.js';
import type { ApiRoute } from '../../src/http/plugins/openapi.js';
import { upload } from '../helpers/drive.js';
import { recordErrorAnswers, type ErrorAnswer } from '../helpers/error-answers.js';
import { multipartBody } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

interface Operation {
  summary?: string;
  tags?: string[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema?: { properties?: { code?: { enum?: string[] } } } }> }>;
}
type Paths = Record<string, Record<string, Operation>>;

/** The document's path of a Fastify route pattern: `/a/:id` is `/a/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');

const OPENAPI_METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']);

const MAX_UPLOAD = 64 * 1024;

describe('the API reference', () => {
  let t: TestApp;
  let answers: ErrorAnswer[];
  let paths: Paths;
  let doc: Record<string, unknown>;

  beforeAll(async () => {
    t = await createTestApp({ maxUploadBytes: MAX_UPLOAD });
    answers = recordErrorAnswers(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
    paths = doc.paths as Paths;
  });
  afterAll(async () => t?.close());

  const documentedCodes = (method: string, route: string, status: number): string[] => {
    const ops = paths[openApiPath(route)];
    // A HEAD twin answers as its GET does; only an explicit HEAD route has its own operation.
    const op = ops?.[method.toLowerCase()] ?? (method === 'HEAD' ? ops?.get : undefined);
    return op?.responses[String(status)]?.content?.['application/json']?.schema?.properties?.code?.enum ?? [];
  };

  it('gives every route a schema with a summary and tags', () => {
    const routes = t.app.apiRoutes.filter((r) => r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(60);
    // Hidden: only the reference page's own files, and WebDAV's methods, which OpenAPI cannot name.
    const mayHide = (r: ApiRoute) => r.url.startsWith('/api/docs') || !OPENAPI_METHODS.has(r.method);
    const lacking = routes
      .filter((r) => (r.schema?.hide ? !mayHide(r) : !(r.schema?.summary && r.schema.tags?.length)))
      .map((r) => `${r.method} ${r.url}`);
    expect(lacking).toEqual([]);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('lists every route with its path parameters, query and body', () => {
    const missing: string[] = [];
    for (const route of t.app.apiRoutes) {
      if (route.method === 'HEAD' || route.schema?.hide) continue;
      const op = paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      if (!op) {
        // OpenAPI has no operations for WebDAV's own methods: the GET of the same path names them.
        if (!route.url.startsWith('/dav')) missing.push(`${route.method} ${route.url}: not in the document`);
        continue;
      }
      for (const name of route.url.matchAll(/:(\w+)/g)) {
        if (!op.parameters?.some((p) => p.in === 'path' && p.name === name[1]))
          missing.push(`${route.method} ${route.url}: path ${name[1]}`);
      }
      if (route.schema?.querystring && !op.parameters?.some((p) => p.in === 'query')) missing.push(`${route.method} ${route.url}: query`);
      if (route.schema?.body && !op.requestBody) missing.push(`${route.method} ${route.url}: body`);
    }
    expect(missing).toEqual([]);
  });

  it('documents only known error codes, each under the status the server gives it', () => {
    const wrong: string[] = [];
    for (const [path, ops] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          for (const code of response.content?.['application/json']?.schema?.properties?.code?.enum ?? []) {
            if (!(ERROR_CODES as readonly string[]).includes(code)) wrong.push(`${method} ${path}: unknown ${code}`);
            else if (String(statusOf(code as (typeof ERROR_CODES)[number])) !== status)
              wrong.push(`${method} ${path}: ${code} under ${status}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps no zod schema of an error answer beside the routes: they are made with the document', () => {
    const errorSchemas = t.app.apiRoutes.flatMap((route) =>
      Object.values(
        (route.schema?.response ?? {}) as Record<string, { description?: string; content?: Record<string, { schema: unknown }> }>,
      )
        .filter((entry) => entry.description?.startsWith('Error: '))
        .map((entry) => entry.content?.['application/json']?.schema),
    );
    expect(errorSchemas.length).toBeGreaterThan(100);
    expect(errorSchemas.filter((schema) => schema instanceof z.ZodType)).toEqual([]);
  });

  it('serves the browsable reference with its own assets, under the server CSP', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      // Everything comes from this server: the page works offline.
      expect(asset).toMatch(/^\/api\/docs\//);
      const res = await t.app.inject({ method: 'GET', url: asset });
      expect([asset, res.statusCode]).toEqual([asset, 200]);
      expect(res.body.length).toBeGreaterThan(0);
    }
    const json = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json.json()).toEqual(doc);
  });

  it('documents every error answer a representative set of failures gets, per route', async () => {
    const owner = new TestBrowser(t.app);
    const user = await owner.signUp();
    const file = await upload(owner, 'a.txt', 'hello');
    const folder = (await owner.post('/folder-service/create', { name: 'f', parent: '/' })).json() as { _id: string };
    const stranger = new TestBrowser(t.app);
    await stranger.signUp();
    const anonymous = new TestBrowser(t.app);

    const big = await multipartBody([
      { name: 'filename', value: 'big.bin' },
      { name: 'parent', value: '/' },
      { name: 'size', value: String(MAX_UPLOAD * 2) },
      { name: 'file', filename: 'big.bin', data: Buffer.alloc(MAX_UPLOAD * 2) },
    ]);
    const unknownToken = 'A'.repeat(32);
    const calls: [TestBrowser, 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'HEAD', string, unknown?, Record<string, string | undefined>?][] = [
      // 401 without a session, across families
      [anonymous, 'GET', '/file-service/list'],
      [anonymous, 'GET', '/folder-service/list'],
      [anonymous, 'GET', '/user-service/user'],
      [anonymous, 'GET', '/share-service/links'],
      [anonymous, 'POST', '/file-service/semantic-search', { query: 'x' }],
      [anonymous, 'GET', '/user-service/app-passwords'],
      [anonymous, 'POST', '/user-service/login', { email: user.email, password: 'wrong password' }],
      // 404 on a stranger's id
      [stranger, 'GET', `/file-service/info/${file._id}`],
      [stranger, 'GET', `/file-service/download/${file._id}`],
      [stranger, 'GET', `/folder-service/info/${folder._id}`],
      [stranger, 'PATCH', '/file-service/rename', { id: file._id, title: 'x' }],
      [stranger, 'PATCH', '/folder-service/rename', { id: folder._id, title: 'x' }],
      [stranger, 'PATCH', `/file-service/make-public/${file._id}`],
      [stranger, 'PATCH', '/file-service/trash-multi', { items: [{ type: 'file', id: file._id }] }],
      [stranger, 'POST', '/share-service/links', { itemType: 'file', itemId: file._id }],
      [stranger, 'DELETE', `/user-service/app-passwords/${randomUUID()}`],
      [stranger, 'GET', `/file-service/thumbnail/${randomUUID()}`],
      [anonymous, 'GET', `/share-service/public/${unknownToken}`],
      [anonymous, 'GET', `/file-service/public/info/${file._id}/${unknownToken}`],
      [owner, 'HEAD', `/file-service/tus/${randomUUID()}`, undefined, { 'tus-resumable': '1.0.0' }],
      // 400 on bad input
      [owner, 'GET', '/file-service/list?sortBy=sideways'],
      [owner, 'GET', '/folder-service/list?limit=0'],
      [owner, 'POST', '/folder-service/create', { name: 'x', parent: 'p'.repeat(100) }],
      [owner, 'PATCH', '/user-service/change-password', { oldPassword: 'x' }],
      [owner, 'POST', '/file-service/semantic-search', { query: '' }],
      [owner, 'GET', '/share-service/public/short'],
      [owner, 'PATCH', '/file-service/rename', { id: file._id, title: 'x' }, { uuid: undefined }],
      [owner, 'POST', '/file-service/tus', undefined, { 'tus-resumable': '1.0.0' }],
      // 409
      [anonymous, 'POST', '/user-service/create', { email: user.email, password: 'another password' }],
      // 413
      [owner, 'POST', '/file-service/upload', big.body, { 'content-type': big.contentType }],
      [owner, 'PATCH', '/file-service/rename', { id: file._id, title: 'x'.repeat(2 * 1024 * 1024) }],
    ];
    for (const [browser, method, url, body, headers] of calls) await browser.request(method, url, body, headers);

    const statuses = new Set(answers.map((a) => a.status));
    for (const status of [400, 401, 404, 409, 413]) expect(statuses).toContain(status);
    expect(new Set(answers.map((a) => a.route.split('/')[1])).size).toBeGreaterThanOrEqual(4);
    const undocumented = answers
      .filter((a) => !documentedCodes(a.method, a.route, a.status).includes(a.code))
      .map((a) => `${a.method} ${a.route}: ${a.status} ${a.code}`);
    expect(undocumented).toEqual([]);
  });
});
