import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startS3Server, type S3Server } from '../storage/storage-fixtures.js';

describe('the drive on the S3 driver', () => {
  let s3: S3Server;
  let t: TestApp;
  let alice: TestBrowser;

  async function objectCount(): Promise<number> {
    const client = s3.client();
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket }));
    client.destroy();
    return listed.KeyCount ?? 0;
  }

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await createTestApp({ storage: s3.config });
    alice = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(async () => {
    await t.close();
    await s3.stop();
  });

  it('uploads, downloads whole and by range, and deletes the object', async () => {
    const data = randomBytes(300_000);
    const file = await upload(alice, 'remote.bin', data);
    expect(await objectCount()).toBe(1);
    expect((await alice.get(`/file-service/download/${file._id}`)).rawPayload.equals(data)).toBe(true);
    const ranged = await alice.request('GET', `/file-service/download/${file._id}`, undefined, { range: 'bytes=131070-131080' });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.equals(data.subarray(131_070, 131_081))).toBe(true);
    await alice.delete('/file-service/remove', { id: file._id });
    await t.app.background.drainJobs();
    expect(await objectCount()).toBe(0);
  });
});
