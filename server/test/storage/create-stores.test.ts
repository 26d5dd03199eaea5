import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore, createEncryptedStore } from '../../src/storage/create-stores.js';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';
import { S3BlobStore } from '../../src/storage/s3.store.js';
import { expectSameBytes, readAll, startS3Server, streamOf, type S3Server } from './storage-fixtures.js';

describe('createBlobStore and createEncryptedStore', () => {
  let root: string;
  let s3: S3Server;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'nimbus-factory-'));
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it.each(['fs', 's3'] as const)('builds a working %s store, encrypted with the master key', async (driver) => {
    const blobStore = createBlobStore(driver === 'fs' ? { driver, root } : s3.config);
    expect(blobStore).toBeInstanceOf(driver === 'fs' ? LocalDiskStore : S3BlobStore);
    const sut = createEncryptedStore(blobStore, randomBytes(32));
    const data = randomBytes(200_000);

    const written = await sut.write('factory-made', streamOf(data));

    expectSameBytes(await readAll(sut.read('factory-made', written.wrappedKey, written.size)), data);
    await sut.close();
  });

  it('refuses a master key that is not 32 bytes', () => {
    expect(() => createEncryptedStore(createBlobStore({ driver: 'fs', root }), randomBytes(16))).toThrow(RangeError);
  });
});
