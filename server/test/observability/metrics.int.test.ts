import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB } from '../../src/jobs/job-names.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { upload } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { METRICS_TOKEN, scrape, valueOf } from './support.js';

const REQUESTS = 'nimbus_http_request_duration_seconds_count';
const UPLOADED = 'nimbus_upload_bytes_total';
const DOWNLOADED = 'nimbus_download_bytes_total';

describe('GET /metrics: the token', () => {
  let off: TestApp;
  let on: TestApp;
  beforeAll(async () => {
    off = await createTestApp({ search: { enabled: false, embeddings: null } });
    on = await createTestApp({ search: { enabled: false, embeddings: null }, metricsToken: METRICS_TOKEN });
  });
  afterAll(async () => {
    await off.close();
    await on.close();
  });

  it('is not found when METRICS_TOKEN is unset, whatever is presented', async () => {
    for (const authorization of [undefined, `Bearer ${METRICS_TOKEN}`]) {
      const response = await off.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', requestId: expect.any(String) });
    }
  });

  it('refuses a missing, wrong or differently sent token with 401', async () => {
    const cases = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: `Bearer ${METRICS_TOKEN}x` },
      { authorization: `Basic ${Buffer.from(`metrics:${METRICS_TOKEN}`).toString('base64')}` },
      { authorization: METRICS_TOKEN },
    ];
    for (const headers of cases) {
      const response = await on.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(response.body).not.toContain('nimbus_');
    }
  });

  it('answers the Prometheus text format with the right token, process metrics included', async () => {
    const response = await on.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    for (const name of ['process_cpu_user_seconds_total', 'nodejs_heap_size_used_bytes', 'nimbus_upload_bytes_total', 'nimbus_jobs']) {
      expect(response.body).toContain(`# TYPE ${name} `);
    }
  });

  it('keeps each app’s registry apart', async () => {
    await off.app.inject({ method: 'GET', url: '/health' });
    const before = valueOf(await scrape(on.app), REQUESTS, { route: '/health' });
    await off.app.inject({ method: 'GET', url: '/health' });
    expect(valueOf(await scrape(on.app), REQUESTS, { route: '/health' })).toBe(before);
  });
});

describe('metrics: what they count', () => {
  let t: TestApp;
  let browser: TestBrowser;
  beforeAll(async () => {
    t = await createTestApp({ search: { enabled: false, embeddings: null }, metricsToken: METRICS_TOKEN });
    browser = new TestBrowser(t.app);
    await browser.signUp();
  });
  afterAll(() => t.close());

  it('counts each request under its route pattern and status class, never the raw URL', async () => {
    const before = await scrape(t.app);
    await t.app.inject({ method: 'GET', url: '/health' });
    await t.app.inject({ method: 'GET', url: '/health?x=1' });
    const missing = await browser.get('/file-service/info/no-such-id-4242');
    expect(missing.statusCode).toBe(404);
    await t.app.inject({ method: 'GET', url: '/nothing/here-9876' });
    const after = await scrape(t.app);
    const delta = (labels: Record<string, string>) => valueOf(after, REQUESTS, labels) - valueOf(before, REQUESTS, labels);
    expect(delta({ method: 'GET', route: '/health', status_class: '2xx' })).toBe(2);
    expect(delta({ method: 'GET', route: '/file-service/info/:id', status_class: '4xx' })).toBe(1);
    expect(delta({ method: 'GET', route: '(unmatched)', status_class: '4xx' })).toBe(1);
    const routes = after.filter((s) => s.name === REQUESTS).map((s) => s.labels.route);
    expect(routes.join(' ')).not.toMatch(/no-such-id|here-9876|x=1/);
    // The latency histogram has buckets and a sum beside the count.
    expect(valueOf(after, 'nimbus_http_request_duration_seconds_bucket', { route: '/health', status_class: '2xx', le: '+Inf' })).toBe(
      valueOf(after, REQUESTS, { route: '/health', status_class: '2xx' }),
    );
  });

  it('counts the bytes of an upload and of whole and partial downloads exactly', async () => {
    const data = randomBytes(100_000);
    let before = await scrape(t.app);
    const file = await upload(browser, 'counted.bin', data);
    let after = await scrape(t.app);
    expect(valueOf(after, UPLOADED) - valueOf(before, UPLOADED)).toBe(data.length);

    before = after;
    const whole = await browser.get(`/file-service/download/${file._id}`);
    expect(whole.rawPayload.equals(data)).toBe(true);
    after = await scrape(t.app);
    expect(valueOf(after, DOWNLOADED) - valueOf(before, DOWNLOADED)).toBe(data.length);

    before = after;
    const part = await browser.request('GET', `/file-service/download/${file._id}`, undefined, { range: 'bytes=1000-1999' });
    expect(part.statusCode).toBe(206);
    after = await scrape(t.app);
    expect(valueOf(after, DOWNLOADED) - valueOf(before, DOWNLOADED)).toBe(1000);

    // A HEAD and a conditional GET send no file bytes.
    before = after;
    await browser.request('HEAD', `/file-service/download/${file._id}`);
    await browser.request('GET', `/file-service/download/${file._id}`, undefined, { 'if-none-match': whole.headers.etag as string });
    expect(valueOf(await scrape(t.app), DOWNLOADED)).toBe(valueOf(before, DOWNLOADED));
  });

  it('counts a zip download by the bytes sent', async () => {
    await upload(browser, 'in-zip.txt', 'zip me');
    const files = (await browser.get('/file-service/list')).json<{ _id: string }[]>();
    const before = await scrape(t.app);
    const zip = await browser.get(`/folder-service/download-zip?${files.map((f) => `fileIDs[]=${f._id}`).join('&')}`);
    expect(zip.statusCode).toBe(200);
    const after = await scrape(t.app);
    expect(valueOf(after, DOWNLOADED) - valueOf(before, DOWNLOADED)).toBe(zip.rawPayload.length);
  });

  it('counts resumable (tus) pieces as they arrive', async () => {
    const data = randomBytes(70_000);
    const before = await scrape(t.app);
    const created = await browser.request('POST', '/file-service/tus', undefined, {
      'tus-resumable': '1.0.0',
      'upload-length': String(data.length),
      'upload-metadata': `filename ${Buffer.from('tus.bin').toString('base64')}`,
    });
    expect(created.statusCode, created.body).toBe(201);
    const location = new URL(created.headers.location as string, 'http://x').pathname;
    // The server keeps whole encryption chunks of a piece and answers where to go on: every byte
    // sent counts, also those it asks for again.
    let offset = 0;
    let sent = 0;
    for (const end of [30_000, data.length]) {
      const piece = data.subarray(offset, end);
      const patched = await browser.request('PATCH', location, piece, {
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      });
      expect(patched.statusCode, patched.body).toBe(204);
      sent += piece.length;
      offset = Number(patched.headers['upload-offset']);
    }
    expect(offset).toBe(data.length);
    expect(valueOf(await scrape(t.app), UPLOADED) - valueOf(before, UPLOADED)).toBe(sent);
  });

  it('reports the jobs table by name and state on each scrape, and counts failures', async () => {
    await t.app.background.drainJobs();
    const queue = new JobQueue(t.app.database.db, t.app.database.dialect, { now: () => Date.now() });
    for (let i = 0; i < 3; i++) await queue.enqueue(JOB.blobDelete, { keys: [] }, { runAt: Date.now() + 3_600_000 });
    let samples = await scrape(t.app);
    expect(valueOf(samples, 'nimbus_jobs', { name: JOB.blobDelete, state: 'delayed' })).toBe(3);
    expect(valueOf(samples, 'nimbus_jobs', { name: JOB.blobDelete, state: 'queued' })).toBe(0);

    // A payload its handler cannot take: one job with a retry left, one without.
    const broken = {} as { keys: string[] };
    await queue.enqueue(JOB.blobDelete, broken, { maxAttempts: 2 });
    await queue.enqueue(JOB.blobDelete, broken, { maxAttempts: 1 });
    samples = await scrape(t.app);
    expect(valueOf(samples, 'nimbus_jobs', { name: JOB.blobDelete, state: 'queued' })).toBe(2);
    const failuresBefore = (outcome: string) => valueOf(samples, 'nimbus_job_failures_total', { name: JOB.blobDelete, outcome });

    await t.app.background.drainJobs();
    const after = await scrape(t.app);
    const failures = (outcome: string) => valueOf(after, 'nimbus_job_failures_total', { name: JOB.blobDelete, outcome });
    expect(failures('retry') - failuresBefore('retry')).toBe(1);
    expect(failures('failed') - failuresBefore('failed')).toBe(1);
    expect(valueOf(after, 'nimbus_jobs', { name: JOB.blobDelete, state: 'failed' })).toBe(1);
    // The retried one waits out its back-off.
    expect(valueOf(after, 'nimbus_jobs', { name: JOB.blobDelete, state: 'delayed' })).toBe(4);
  });
});
