import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { JOB, type JobName } from '../../src/jobs/job-names.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { JobWorker, type JobHandlers } from '../../src/jobs/worker.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-app.js';

let dir: string;
let testDb: TestDatabase;
let handle: DatabaseHandle;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-worker-'));
  testDb = await createTestDatabase(dir);
  handle = openDatabase(testDb.config);
  await migrateToLatest(handle.db);
});

afterAll(async () => {
  await handle.close();
  await testDb.drop();
  await rm(dir, { recursive: true, force: true });
});

it('runs at most `slots` CPU-heavy jobs at once while light jobs keep flowing', async () => {
  const clock = { now: () => Date.now() };
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
  let heavyNow = 0;
  let heavyMost = 0;
  let heavyStarted = 0;
  let lightDone = 0;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const noop = async () => undefined;
  const handlers = Object.fromEntries(Object.values(JOB).map((name) => [name, noop])) as unknown as JobHandlers;
  handlers[JOB.searchIndexFile] = async () => {
    heavyNow++;
    heavyStarted++;
    heavyMost = Math.max(heavyMost, heavyNow);
    await gate;
    heavyNow--;
  };
  handlers[JOB.blobDelete] = async () => {
    lightDone++;
  };
  const queue = new JobQueue(handle.db, handle.dialect, clock);
  for (let i = 0; i < 3; i++) await queue.enqueue(JOB.searchIndexFile, { fileId: `f${i}` });
  for (let i = 0; i < 3; i++) await queue.enqueue(JOB.blobDelete, { keys: [] });

  const heavy: JobName[] = [JOB.searchIndexFile];
  const worker = new JobWorker(handle.db, handle.dialect, handlers, clock, log, {
    concurrency: 3,
    pollMs: 20,
    cpuHeavy: [{ names: heavy, slots: 1 }],
  });
  worker.start();
  // The first heavy job holds the only slot until released: light jobs must still all run.
  await expect.poll(() => lightDone, { timeout: 20_000 }).toBe(3);
  await expect.poll(() => heavyStarted, { timeout: 20_000 }).toBe(1);
  release();
  await expect.poll(async () => (await handle.db.selectFrom('job').select('id').execute()).length, { timeout: 20_000 }).toBe(0);
  await worker.stop();
  expect(heavyMost).toBe(1);
});

it('keeps thumbnails running while indexing is stuck, each group in its own slots', async () => {
  await handle.db.deleteFrom('job').execute();
  const clock = { now: () => Date.now() };
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
  let release: () => void = () => undefined;
  const stuck = new Promise<void>((resolve) => (release = resolve));
  let thumbnails = 0;
  const noop = async () => undefined;
  const handlers = Object.fromEntries(Object.values(JOB).map((name) => [name, noop])) as unknown as JobHandlers;
  handlers[JOB.searchIndexFile] = () => stuck;
  handlers[JOB.fileThumbnail] = async () => {
    thumbnails++;
  };
  const queue = new JobQueue(handle.db, handle.dialect, clock);
  for (let i = 0; i < 2; i++) await queue.enqueue(JOB.searchIndexFile, { fileId: `f${i}` });
  for (let i = 0; i < 3; i++) await queue.enqueue(JOB.fileThumbnail, { fileId: `t${i}` });

  const worker = new JobWorker(handle.db, handle.dialect, handlers, clock, log, {
    concurrency: 3,
    pollMs: 20,
    cpuHeavy: [
      { names: [JOB.searchIndexFile], slots: 1 },
      { names: [JOB.fileThumbnail], slots: 1 },
    ],
  });
  worker.start();
  await expect.poll(() => thumbnails, { timeout: 20_000 }).toBe(3);
  release();
  await expect.poll(async () => (await handle.db.selectFrom('job').select('id').execute()).length, { timeout: 20_000 }).toBe(0);
  await worker.stop();
});
