import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createBackup, restoreBackup } from '../../src/backup/index.js';
import type { Config } from '../../src/config.js';
import { upload } from '../helpers/drive.js';
import { createTestDatabase, testConfig, type TestDatabase } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { startS3Server, type S3Server } from '../storage/storage-fixtures.js';

const secrets = { secretKey: 'backup-test-secret-key-0123456789-abcdefgh', encryptionKey: randomBytes(32) };

describe('backup and restore on PostgreSQL and S3', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  async function target(): Promise<{ config: Config; db: TestDatabase; s3: S3Server }> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-pgs3-'));
    const db = await createTestDatabase(dataDir, 'postgres');
    const s3 = await startS3Server();
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }), db.drop, s3.stop);
    return { config: testConfig(dataDir, db.config, { storage: s3.config, secrets }), db, s3 };
  }

  it('pg_dump in the snapshot the blob list comes from; pg_restore and the bucket serve the same files', { timeout: 120_000 }, async () => {
    const source = await target();
    const app = await buildApp(source.config);
    cleanups.push(() => app.close());
    const alice = new TestBrowser(app);
    const { email, password } = await alice.signUp();
    const contents = new Map<string, Buffer>();
    for (let i = 0; i < 8; i++) {
      const data = randomBytes(1000 + i * 70_001);
      contents.set((await upload(alice, `file-${i}.bin`, data))._id, data);
    }
    let running = true;
    const churn = (async () => {
      for (let i = 0; running; i++) await upload(alice, `during-${i}.bin`, randomBytes(5000));
    })();
    const backupDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'nimbus-pgs3-backup-')), 'b');
    cleanups.push(() => rm(path.dirname(backupDir), { recursive: true, force: true }));
    const manifest = await createBackup(source.config, backupDir, { includeMasterKey: false });
    running = false;
    await churn;
    expect(manifest.database.kind).toBe('postgres');
    expect(manifest.storage.driver).toBe('s3');
    expect(manifest.blobs.count).toBe(manifest.counts.files);
    expect(manifest.counts.files).toBeGreaterThanOrEqual(8);

    const wrongKey = await target();
    await expect(
      restoreBackup({ ...wrongKey.config, secrets: { ...secrets, encryptionKey: randomBytes(32) } }, backupDir, {
        force: false,
        keyFile: null,
      }),
    ).rejects.toThrow(/encryption key is not the one/);

    const restored = await target();
    const result = await restoreBackup(restored.config, backupDir, { force: false, keyFile: null });
    expect(result.blobs).toBe(manifest.blobs.count);
    await expect(restoreBackup(restored.config, backupDir, { force: false, keyFile: null })).rejects.toThrow(/not empty/);
    await restoreBackup(restored.config, backupDir, { force: true, keyFile: null });

    const restoredApp = await buildApp(restored.config);
    cleanups.push(() => restoredApp.close());
    const back = new TestBrowser(restoredApp);
    expect((await back.post('/user-service/login', { email, password })).statusCode).toBe(200);
    for (const [id, data] of contents) {
      const response = await back.get(`/file-service/download/${id}`);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(data)).toBe(true);
    }
  });
});
