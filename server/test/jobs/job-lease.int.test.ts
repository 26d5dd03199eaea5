import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { JOB } from '../../src/jobs/job-names.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { JobWorker, type JobHandlers } from '../../src/jobs/worker.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-app.js';

let dir: string;
let testDb: TestDatabase;
let handle: DatabaseHandle;
const clock = { now: () => Date.now() };
const log = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-lease-'));
  testDb = await createTestDatabase(dir);
  handle = openDatabase(testDb.config);
  await migrateToLatest(handle.db);
});

afterAll(async () => {
  await handle.close();
  await testDb.drop();
  await rm(dir, { recursive: true, force: true });
});

function handlersWith(blobDelete: JobHandlers[typeof JOB.blobDelete]): JobHandlers {
  const noop = async () => undefined;
  const handlers = Object.fromEntries(Object.values(JOB).map((name) => [name, noop])) as unknown as JobHandlers;
  handlers[JOB.blobDelete] = blobDelete;
  return handlers;
}

const pending = async () => (await handle.db.selectFrom('job').select('id').where('name', '=', JOB.blobDelete).execute()).length;

it('a job longer than its lease keeps it while its worker lives: no second worker runs it too', async () => {
  let runs = 0;
  const slow = handlersWith(async () => {
    runs++;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
  });
  await new JobQueue(handle.db, handle.dialect, clock).enqueue(JOB.blobDelete, { keys: [] });
  const options = { concurrency: 1, pollMs: 20, leaseMs: 300 };
  const first = new JobWorker(handle.db, handle.dialect, slow, clock, log, options);
  const second = new JobWorker(handle.db, handle.dialect, slow, clock, log, options);
  first.start();
  await new Promise((resolve) => setTimeout(resolve, 100));
  second.start();
  await new Promise((resolve) => setTimeout(resolve, 1_600));
  await Promise.all([first.stop(), second.stop()]);
  expect(runs).toBe(1);
  expect(await pending()).toBe(0);
});

it('a job whose worker died runs again once its short lease has passed', async () => {
  await new JobQueue(handle.db, handle.dialect, clock).enqueue(JOB.blobDelete, { keys: [] });
  // A process that claimed the job and was killed: its claim stays until the lease runs out.
  await handle.db
    .updateTable('job')
    .set({ lockedBy: 'a-killed-process', lockedUntil: Date.now() + 400, attempts: 1 })
    .where('name', '=', JOB.blobDelete)
    .execute();
  let runs = 0;
  const worker = new JobWorker(
    handle.db,
    handle.dialect,
    handlersWith(async () => {
      runs++;
    }),
    clock,
    log,
    { concurrency: 1, pollMs: 20, leaseMs: 60_000 },
  );
  worker.start();
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(runs).toBe(0);
  await expect.poll(() => runs, { timeout: 5_000 }).toBe(1);
  await worker.stop();
  expect(await pending()).toBe(0);
});
