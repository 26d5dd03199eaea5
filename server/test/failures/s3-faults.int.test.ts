import type { ApiErrorBody } from '@nimbus/common';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../src/storage/s3.store.js';
import { listFiles } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { createTestApp, testDialect, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { MiB, TEST_PART_SIZE, startS3Server, type S3Server } from '../storage/storage-fixtures.js';
import { FaultyS3Proxy } from './faulty-s3-proxy.js';

const isPartOrObjectPut = (method: string) => method === 'PUT';

// The S3 path does not depend on the database; once (on SQLite) is enough.
describe.runIf(testDialect() === 'sqlite')('S3 faults behind a fault-injecting proxy', () => {
  let s3: S3Server;
  let proxy: FaultyS3Proxy;
  let t: TestApp;
  let me: TestBrowser;

  beforeAll(async () => {
    s3 = await startS3Server();
    proxy = new FaultyS3Proxy(s3.config.endpoint!);
    await proxy.start();
    // Small parts (S3's minimum) so a file is several parts; short back-off so the test is quick.
    const blobStore = S3BlobStore.fromConfig(
      { ...s3.config, endpoint: proxy.endpoint },
      { partSize: TEST_PART_SIZE, queueSize: 2, retry: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 200 } },
    );
    t = await createTestApp({ search: { enabled: false, embeddings: null } }, { blobStore });
    me = new TestBrowser(t.app);
    await me.signUp();
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.stop();
    await s3?.stop();
  });
  beforeEach(() => {
    proxy.plan = () => null;
  });

  async function postUpload(filename: string, data: Buffer) {
    const { body, contentType } = await multipartBody([
      { name: 'filename', value: filename },
      { name: 'parent', value: '/' },
      { name: 'currentID', value: 'u1' },
      { name: 'size', value: String(data.length) },
      { name: 'file', filename, data },
    ]);
    return me.request('POST', '/file-service/upload', body, { 'content-type': contentType });
  }

  async function bucketKeys(): Promise<string[]> {
    const client = s3.client();
    try {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket }));
      return (listed.Contents ?? []).map((o) => o.Key!).sort();
    } finally {
      client.destroy();
    }
  }

  async function rowCount(): Promise<number> {
    const rows = await sql<{ n: number }>`select count(*) as n from file`.execute(t.app.database.db);
    return Number(rows.rows[0]!.n);
  }

  it('retries parts answered 503 SlowDown or cut mid-body, and the file downloads byte-identical', async () => {
    // Every part (and the small requests around them) is throttled on its first try; each part
    // is then cut halfway through its body on the second, and goes through on the third.
    proxy.plan = ({ method, attempt }) => {
      if (attempt === 1) return 'slow-down';
      if (attempt === 2 && isPartOrObjectPut(method)) return 'reset';
      return null;
    };
    const data = randomBytes(3 * TEST_PART_SIZE + 123_457);
    const response = await postUpload('retried.bin', data);
    expect(response.statusCode).toBe(201);
    expect(proxy.injected.reset).toBeGreaterThanOrEqual(3);
    expect(proxy.injected['slow-down']).toBeGreaterThanOrEqual(6);

    proxy.plan = () => null;
    const fileId = response.json<{ _id: string }>()._id;
    const download = await me.get(`/file-service/download/${fileId}`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(data)).toBe(true);
    expect(await bucketKeys()).toHaveLength(1);
  });

  it('a small file (one PutObject) survives a cut body too', async () => {
    proxy.plan = ({ method, attempt }) => (attempt === 1 && isPartOrObjectPut(method) ? 'reset' : null);
    const data = randomBytes(MiB);
    const response = await postUpload('small.bin', data);
    expect(response.statusCode).toBe(201);
    const download = await me.get(`/file-service/download/${response.json<{ _id: string }>()._id}`);
    expect(download.rawPayload.equals(data)).toBe(true);
  });

  it('when the faults persist the upload fails with 503 and leaves no row and no object', async () => {
    const rowsBefore = await rowCount();
    const keysBefore = await bucketKeys();
    const listed = await listFiles(me);
    proxy.plan = ({ method, url }) => (isPartOrObjectPut(method) && url.includes('partNumber=2') ? 'slow-down' : null);
    const response = await postUpload('doomed.bin', randomBytes(3 * TEST_PART_SIZE));
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json<ApiErrorBody>().code).toBe('UNAVAILABLE');

    proxy.plan = () => null;
    expect(await rowCount()).toBe(rowsBefore);
    expect(await listFiles(me)).toEqual(listed);
    expect(await bucketKeys()).toEqual(keysBefore);
  });
});
