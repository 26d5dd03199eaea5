import type { FileDto, FileVersionListDto } from '@nimbus/common';
import type { LightMyRequestResponse } from 'fastify';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRepository } from '../../src/db/repositories/file.repository.js';
import type { BlobStore } from '../../src/storage/blob-store.js';
import { createBlobStore } from '../../src/storage/create-stores.js';
import { upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { createTestApp, testDialect, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

const QUOTA = 1000;
const MAX_PER_FILE = 3;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
/** `n` bytes that differ from any other call's. */
const bytes = (n: number, fill: number) => Buffer.alloc(n, fill);

describe('versions, the quota and the per-file cap', () => {
  let t: TestApp;
  let blobs: BlobStore;

  beforeAll(async () => {
    // The share cap is out of the way here (its own tests are retention's): only the quota and VERSIONS_MAX apply.
    t = await createTestApp({
      storageQuotaBytes: QUOTA,
      versions: { maxPerFile: MAX_PER_FILE, maxShareOfQuota: 1 },
      search: { enabled: false, embeddings: null },
    });
    blobs = createBlobStore(t.config.storage);
  });
  afterAll(async () => {
    await blobs?.close();
    await t?.close();
  });

  const signedUp = async () => {
    const browser = new TestBrowser(t.app);
    const { id } = await browser.signUp();
    return { browser, id };
  };
  const uploadVersion = async (browser: TestBrowser, fileId: string, data: Buffer): Promise<LightMyRequestResponse> => {
    const { body, contentType } = await multipartBody([{ name: 'file', filename: 'new.bin', data }]);
    return browser.request('POST', `/file-service/upload-version/${fileId}`, body, { 'content-type': contentType });
  };
  const replaced = async (browser: TestBrowser, fileId: string, data: Buffer): Promise<FileDto> => {
    const answer = await uploadVersion(browser, fileId, data);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<FileDto>();
  };
  const versionsOf = async (browser: TestBrowser, fileId: string) =>
    (await browser.get(`/file-service/versions/${fileId}`)).json<FileVersionListDto>();
  const charged = (ownerId: string) => new FileRepository(t.app.database.db, testDialect()).bytesCharged(ownerId);
  const keysOf = async (fileId: string) =>
    (await t.app.database.db.selectFrom('fileVersion').select('storageKey').where('fileId', '=', fileId).execute()).map(
      (r) => r.storageKey,
    );

  it('counts versions in the bytes charged to the owner', async () => {
    const { browser, id } = await signedUp();
    const file = await upload(browser, 'a.bin', bytes(300, 1));
    expect(await charged(id)).toBe(300);
    await replaced(browser, file._id, bytes(200, 2));
    expect(await charged(id)).toBe(500);
    const [version] = (await versionsOf(browser, file._id)).versions;
    expect((await browser.delete(`/file-service/versions/${file._id}/${version!.id}`)).statusCode).toBe(200);
    expect(await charged(id)).toBe(200);
  });

  it('an upload-version at the quota lets the oldest versions go instead of failing', async () => {
    const { browser, id } = await signedUp();
    const file = await upload(browser, 'full.bin', bytes(300, 10));
    await replaced(browser, file._id, bytes(300, 11));
    await replaced(browser, file._id, bytes(300, 12));
    expect(await charged(id)).toBe(900);
    const [oldestKey] = (
      await t.app.database.db
        .selectFrom('fileVersion')
        .select('storageKey')
        .where('fileId', '=', file._id)
        .orderBy('uploadedAt', 'asc')
        .orderBy('id', 'asc')
        .execute()
    ).map((r) => r.storageKey);

    await replaced(browser, file._id, bytes(300, 13));
    expect(await charged(id)).toBe(900);
    const list = await versionsOf(browser, file._id);
    expect(list.current.sha256).toBe(sha256(bytes(300, 13)));
    expect(list.versions.map((v) => v.sha256)).toEqual([sha256(bytes(300, 12)), sha256(bytes(300, 11))]);
    await t.app.background.drainJobs();
    expect(await blobs.stat(oldestKey!)).toBeNull();
  });

  it('refuses (413) an upload-version that would not fit even without versions, and keeps them all', async () => {
    const { browser, id } = await signedUp();
    const file = await upload(browser, 'grow.bin', bytes(200, 20));
    await upload(browser, 'other.bin', bytes(500, 21));
    await replaced(browser, file._id, bytes(200, 22));
    expect(await charged(id)).toBe(900);
    const before = await versionsOf(browser, file._id);
    const keys = await keysOf(file._id);

    const over = await uploadVersion(browser, file._id, bytes(600, 23));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(await versionsOf(browser, file._id)).toEqual(before);
    expect(await charged(id)).toBe(900);
    await t.app.background.drainJobs();
    for (const key of keys) expect(await blobs.stat(key)).not.toBeNull();
    expect((await browser.get(`/file-service/download/${file._id}`)).rawPayload.equals(bytes(200, 22))).toBe(true);

    // What fits once the versions go is taken: 500 + 400 <= 1000.
    await replaced(browser, file._id, bytes(400, 24));
    expect(await charged(id)).toBeLessThanOrEqual(QUOTA);
    expect((await browser.get(`/file-service/download/${file._id}`)).rawPayload.equals(bytes(400, 24))).toBe(true);
  });

  it('keeps at most VERSIONS_MAX versions per file, the newest, and releases the others', async () => {
    const { browser } = await signedUp();
    const file = await upload(browser, 'capped.txt', 'c0');
    const keys: string[] = [];
    for (let i = 1; i <= 5; i++) {
      await replaced(browser, file._id, Buffer.from(`c${i}`));
      keys.push(...(await keysOf(file._id)).filter((k) => !keys.includes(k)));
    }
    const list = await versionsOf(browser, file._id);
    expect(list.versions.map((v) => v.sha256)).toEqual(['c4', 'c3', 'c2'].map((c) => sha256(c)));
    await t.app.background.drainJobs();
    const kept = new Set(await keysOf(file._id));
    expect(kept.size).toBe(MAX_PER_FILE);
    for (const key of keys) expect(await blobs.stat(key), key).toEqual(kept.has(key) ? expect.anything() : null);
  });

  it('restoring the oldest version at the cap keeps its bytes: the restored content is never what the cap lets go', async () => {
    const { browser } = await signedUp();
    const file = await upload(browser, 'edge.txt', 'e0');
    for (const c of ['e1', 'e2', 'e3']) await replaced(browser, file._id, Buffer.from(c));
    const before = await versionsOf(browser, file._id);
    expect(before.versions).toHaveLength(MAX_PER_FILE);
    const oldest = before.versions.at(-1)!;
    expect(oldest.sha256).toBe(sha256('e0'));

    const restored = await browser.post(`/file-service/versions/${file._id}/${oldest.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    await t.app.background.drainJobs();
    expect((await browser.get(`/file-service/download/${file._id}`)).body).toBe('e0');
    const after = await versionsOf(browser, file._id);
    expect(after.current.sha256).toBe(sha256('e0'));
    expect(after.versions.map((v) => v.sha256)).toEqual(['e3', 'e2', 'e1'].map((c) => sha256(c)));
    for (const v of after.versions) expect((await browser.get(`/file-service/versions/${file._id}/${v.id}/download`)).statusCode).toBe(200);
  });
});
