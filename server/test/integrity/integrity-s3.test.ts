import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3BlobStore } from '../../src/storage/s3.store.js';
import { upload } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { FaultyS3Proxy } from '../failures/faulty-s3-proxy.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { startS3Server, type S3Server } from '../storage/storage-fixtures.js';
import { check, HOUR, integrityOf, kindsOf, putStray, storageKeyOf } from './support.js';

/** The same check over S3: ListObjectsV2 for the blobs, ranged and whole GETs for the bytes. */
describe('integrity check on S3', () => {
  let server: S3Server;
  let store: S3BlobStore;
  let t: TestApp;
  let me: TestBrowser;
  const later = (ms: number) => ({ now: () => Date.now() + ms });

  beforeAll(async () => {
    server = await startS3Server();
    store = S3BlobStore.fromConfig(server.config);
    t = await createTestApp(
      { search: { enabled: false, embeddings: null }, storage: server.config },
      { blobStore: S3BlobStore.fromConfig(server.config) },
    );
    me = new TestBrowser(t.app);
    await me.signUp();
  });
  afterAll(async () => {
    await t.close();
    await store.close();
    await server.stop();
  });

  it('lists its keys in order, resuming after a key', async () => {
    const keys = Array.from({ length: 5 }, (_, i) => `listed${i}`);
    for (const key of keys) await putStray(store, t.config.secrets.encryptionKey, key);
    const all: string[] = [];
    for await (const object of store.list()) all.push(object.key);
    expect(all).toEqual(keys);
    const rest: string[] = [];
    for await (const object of store.list({ after: 'listed2' })) rest.push(object.key);
    expect(rest).toEqual(['listed3', 'listed4']);
    for (const key of keys) await store.delete(key);
  });

  it('verifies every blob, reports damage and strays, and repairs only the strays', async () => {
    await upload(me, 'fine.bin', randomBytes(100_000));
    const damaged = await upload(me, 'damaged.bin', randomBytes(100_000));
    const key = await storageKeyOf(t, damaged);
    const client = server.client();
    const stored = Buffer.from(
      await (await client.send(new GetObjectCommand({ Bucket: server.config.bucket, Key: key }))).Body!.transformToByteArray(),
    );
    stored[5000] = stored[5000]! ^ 0xff;
    await client.send(new PutObjectCommand({ Bucket: server.config.bucket, Key: key, Body: stored }));
    client.destroy();
    await putStray(store, t.config.secrets.encryptionKey, 'strays3');

    const report = await check(integrityOf(t, later(25 * HOUR), store), { repair: true });
    expect(report.counts).toMatchObject({ files: 2, blobsListed: 3, problems: 2, repaired: 1 });
    expect(kindsOf(report)).toEqual(['corrupt-blob', 'stray-blob']);
    expect(await store.stat('strays3')).toBeNull();
    expect(await store.stat(key)).not.toBeNull();
  });

  it('reports a blob the store keeps failing to serve, and checks the others', { timeout: 60_000 }, async () => {
    const served = await upload(me, 'served.bin', randomBytes(50_000));
    const unserved = await upload(me, 'unserved.bin', randomBytes(50_000));
    const failing = await storageKeyOf(t, unserved);
    const proxy = new FaultyS3Proxy(server.config.endpoint!);
    await proxy.start();
    const flaky = S3BlobStore.fromConfig({ ...server.config, endpoint: proxy.endpoint });
    try {
      proxy.plan = ({ method, url }) => (method !== 'PUT' && url.includes(failing) ? 'slow-down' : null);
      const report = await check(integrityOf(t, later(0), flaky), { repair: true });
      const about = (key: string) => report.problems.filter((p) => p.key === key);
      expect(about(failing)).toMatchObject([{ kind: 'unreadable-blob', role: 'file', repaired: false }]);
      expect(about(await storageKeyOf(t, served))).toEqual([]);
      expect(report.counts.files).toBeGreaterThanOrEqual(4);
      // Never taken for garbage: the bytes are still there once the store serves them again.
      expect(await store.stat(failing)).not.toBeNull();
    } finally {
      await flaky.close();
      await proxy.stop();
    }
  });
});
