import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRepository } from '../../src/db/repositories/job.repository.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('job order across accounts', () => {
  let t: TestApp;
  let now = 1_800_000_000_000;
  const clock = { now: () => now };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("runs one account's job soon even behind another account's hundreds", async () => {
    const { db, dialect } = t.app.database;
    await db.deleteFrom('job').execute();
    const queue = new JobQueue(db, dialect, clock);
    for (let i = 0; i < 300; i++) await queue.enqueue('file.thumbnail', { fileId: `a${i}` }, { lane: 'alice' });
    now += 5_000;
    await queue.enqueue('file.thumbnail', { fileId: 'b0' }, { lane: 'bob' });

    const jobs = new JobRepository(db, dialect);
    const claimed: string[] = [];
    for (let i = 0; i < 10; i++) {
      const job = await jobs.claimNext(['file.thumbnail'], 'w', now, now + 60_000);
      claimed.push((JSON.parse(job!.payload) as { fileId: string }).fileId);
    }
    expect(claimed.indexOf('b0')).toBeGreaterThanOrEqual(0);
    expect(claimed.indexOf('b0')).toBeLessThan(8);
    // Alice's own jobs keep their order.
    expect(claimed.filter((id) => id !== 'b0')).toEqual(
      claimed.filter((id) => id !== 'b0').sort((x, y) => Number(x.slice(1)) - Number(y.slice(1))),
    );
  });
});
