import type { FileVersionListDto } from '@nimbus/common';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createBackup, restoreBackup } from '../../src/backup/index.js';
import { upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { createTestApp, createTestDatabase, testConfig, testDialect, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { check, integrityOf } from '../integrity/support.js';

async function replace(browser: TestBrowser, fileId: string, data: Buffer): Promise<void> {
  const { body, contentType } = await multipartBody([{ name: 'file', filename: 'new.bin', data }]);
  const answer = await browser.request('POST', `/file-service/upload-version/${fileId}`, body, { 'content-type': contentType });
  expect(answer.statusCode, answer.body).toBe(200);
}

async function versionsOf(browser: TestBrowser, fileId: string): Promise<FileVersionListDto> {
  const answer = await browser.get(`/file-service/versions/${fileId}`);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<FileVersionListDto>();
}

describe('backup and restore carry versions', () => {
  let source: TestApp;
  let alice: TestBrowser;
  let credentials: { email: string; password: string };
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    source = await createTestApp({ search: { enabled: false, embeddings: null } });
    alice = new TestBrowser(source.app);
    credentials = await alice.signUp();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await source.close();
  });

  it(
    `restores every version's bytes elsewhere, the file_version table in the ${testDialect()} snapshot`,
    { timeout: 120_000 },
    async () => {
      // Contents by file: the first is the oldest version, the last the current content.
      const contents = new Map<string, Buffer[]>();
      const report = await upload(alice, 'report.bin', randomBytes(70_000));
      const notes = await upload(alice, 'notes.txt', 'notes, first');
      contents.set(report._id, [(await alice.get(`/file-service/download/${report._id}`)).rawPayload]);
      contents.set(notes._id, [Buffer.from('notes, first')]);
      for (const data of [randomBytes(120_000), randomBytes(5)]) {
        await replace(alice, report._id, data);
        contents.get(report._id)!.push(data);
      }
      await replace(alice, notes._id, Buffer.from('notes, second'));
      contents.get(notes._id)!.push(Buffer.from('notes, second'));
      // A trashed file keeps its versions, in the backup too.
      expect((await alice.patch('/file-service/trash', { id: notes._id })).statusCode).toBe(200);
      const listed = new Map([
        [report._id, await versionsOf(alice, report._id)],
        [notes._id, await versionsOf(alice, notes._id)],
      ]);
      expect(listed.get(report._id)!.versions).toHaveLength(2);

      const backupDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'nimbus-versions-backup-')), 'b');
      cleanups.push(() => rm(path.dirname(backupDir), { recursive: true, force: true }));
      const manifest = await createBackup(source.config, backupDir, { includeMasterKey: false });
      expect(manifest.counts).toMatchObject({ files: 2, versions: 3 });
      expect(manifest.blobs.count).toBe(5);
      expect(manifest.blobs.missing).toEqual([]);

      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-versions-restored-'));
      const database = await createTestDatabase(dataDir);
      cleanups.push(
        () => rm(dataDir, { recursive: true, force: true }),
        () => database.drop(),
      );
      const config = testConfig(dataDir, database.config, { secrets: source.config.secrets, search: { enabled: false, embeddings: null } });
      const result = await restoreBackup(config, backupDir, { force: false, keyFile: null });
      expect(result).toMatchObject({ blobs: 5, droppedFiles: 0, droppedVersions: 0 });

      const app = await buildApp(config);
      cleanups.push(() => app.close());
      const back = new TestBrowser(app);
      expect((await back.post('/user-service/login', credentials)).statusCode).toBe(200);
      for (const [fileId, datas] of contents) {
        const list = await versionsOf(back, fileId);
        expect(list).toEqual(listed.get(fileId));
        // Newest first: the versions are the contents before the current one, in reverse.
        const earlier = datas.slice(0, -1).reverse();
        expect(list.versions).toHaveLength(earlier.length);
        for (const [i, version] of list.versions.entries()) {
          const got = await back.get(`/file-service/versions/${fileId}/${version.id}/download`);
          expect(got.statusCode, got.body).toBe(200);
          expect(got.rawPayload.equals(earlier[i]!)).toBe(true);
        }
      }
      expect((await back.get(`/file-service/download/${report._id}`)).rawPayload.equals(contents.get(report._id)!.at(-1)!)).toBe(true);
      // A restored version becomes the content again on the restored server.
      const oldest = listed.get(report._id)!.versions.at(-1)!;
      expect((await back.post(`/file-service/versions/${report._id}/${oldest.id}/restore`)).statusCode).toBe(200);
      expect((await back.get(`/file-service/download/${report._id}`)).rawPayload.equals(contents.get(report._id)![0]!)).toBe(true);

      const checked = await check(
        integrityOf({ app, config, dataDir, close: () => Promise.resolve() }, { now: () => Date.now() + 48 * 3_600_000 }),
        {
          graceMs: 0,
        },
      );
      expect(checked.problems).toEqual([]);
      expect(checked.counts).toMatchObject({ files: 2, versions: 3 });
    },
  );
});
