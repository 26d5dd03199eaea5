import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.js';

// Found by `npm run bench fuzz`: the web app's pages are served by @fastify/static, whose 4xx
// failures reached the error handler as unknown errors and went out as 500s.
describe('the web app, asked for what it cannot give', () => {
  let t: TestApp;

  beforeAll(async () => {
    const webRoot = await mkdtemp(path.join(os.tmpdir(), 'nimbus-web-'));
    await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>Nimbus</title>');
    t = await createTestApp({ webRoot });
  });
  afterAll(() => t.close());

  it('answers a Range past the end of a page with 416 and its size', async () => {
    const response = await t.app.inject({ url: '/some/page', headers: { range: 'bytes=827384962631-1041891944360' } });
    expect(response.statusCode).toBe(416);
    expect(response.headers['content-range']).toBe('bytes */36');
    expect(response.json()).toMatchObject({ code: 'RANGE_NOT_SATISFIABLE' });
  });

  it('answers a failed precondition with a 4xx, not a 500', async () => {
    const response = await t.app.inject({ url: '/index.html', headers: { 'if-match': '"not-this-one"' } });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });
});
