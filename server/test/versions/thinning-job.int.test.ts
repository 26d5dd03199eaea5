import type { FileDto } from '@nimbus/common';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';
import { upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { HOUR, TestClock } from '../users/support.js';

const DAY = 24 * HOUR;
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
/**
 * Thursday 7 January 2027, 01:00 UTC: weeks (counted from the epoch, a Thursday) start on
 * Thursdays. Ahead of the real clock, which the test browser's cookie jar expires cookies by.
 */
const T0 = Date.UTC(2027, 0, 7, 1, 0, 0);
const DATE = (day: number) => new Date(T0 + day * DAY).toISOString().slice(0, 10);

describe('the versions.thin job', () => {
  let t: TestApp;
  let clock: TestClock;
  let blobs: LocalDiskStore;
  let owner: TestBrowser;
  let ownerId: string;
  const accounts: { browser: TestBrowser; email: string; password: string }[] = [];

  beforeAll(async () => {
    clock = new TestClock();
    clock.advance(T0 - clock.now());
    t = await createTestApp({ search: { enabled: false, embeddings: null } }, { clock });
    blobs = new LocalDiskStore((t.config.storage as { root: string }).root);
    owner = new TestBrowser(t.app);
    const signedUp = await owner.signUp();
    ownerId = signedUp.id;
    accounts.push({ browser: owner, ...signedUp });
  });
  afterAll(() => t.close());

  /** Moves the clock to `time`; the accounts sign in again, as their sessions' tokens expired meanwhile. */
  const at = async (time: number) => {
    clock.advance(time - clock.now());
    for (const a of accounts) {
      const answer = await a.browser.post('/user-service/login', { email: a.email, password: a.password });
      expect(answer.statusCode, answer.body).toBe(200);
    }
  };
  const replace = async (b: TestBrowser, file: FileDto, content: string) => {
    const { body, contentType } = await multipartBody([{ name: 'file', filename: 'x', data: content }]);
    const answer = await b.request('POST', `/file-service/upload-version/${file._id}`, body, { 'content-type': contentType });
    expect(answer.statusCode, answer.body).toBe(200);
  };
  const versionsOf = (fileId: string) =>
    t.app.database.db.selectFrom('fileVersion').selectAll().where('fileId', '=', fileId).orderBy('uploadedAt').execute();
  /** Runs the job (and the blob deletions it queues) as the hourly schedule would. */
  const runJob = async () => {
    await t.app.background.schedule();
    await t.app.background.drainJobs();
  };
  const exists = async (key: string) => (await blobs.stat(key)) !== null;

  let daily: FileDto;
  let burst: FileDto;

  it('over 60 days: every version of the last day, one a day for 30 days, one a week before that; thinned blobs are deleted', async () => {
    // `daily` gets new content once a day for 40 days; `burst` twenty times in its first ten hours.
    await at(T0);
    daily = await upload(owner, 'daily.txt', 'day 0');
    burst = await upload(owner, 'burst.txt', 'burst 0');
    for (let k = 1; k <= 20; k++) {
      await at(T0 + k * 30 * 60_000);
      await replace(owner, burst, `burst ${k}`);
    }
    for (let d = 1; d <= 40; d++) {
      await at(T0 + d * DAY);
      await replace(owner, daily, `day ${d}`);
    }
    // Stored within a day of each other, every burst version was kept as it was made.
    expect(await versionsOf(burst._id)).toHaveLength(20);

    // Nothing is stored for 20 days; then the job runs.
    await at(T0 + 60 * DAY);
    const before = [...(await versionsOf(daily._id)), ...(await versionsOf(burst._id))];
    await runJob();

    // Day 30 and older compete within their weeks (Thursday to Wednesday); days 31 to 39 are each
    // their day's only version.
    expect([DATE(0), DATE(30), DATE(60)]).toEqual(['2027-01-07', '2027-02-06', '2027-03-08']);
    const dailyKept = (await versionsOf(daily._id)).map((v) => v.sha256);
    const expectedDays = [6, 13, 20, 27, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39];
    expect(dailyKept).toEqual(expectedDays.map((d) => sha256(`day ${d}`)));
    // All twenty burst versions are of 1 January: its newest stays.
    expect((await versionsOf(burst._id)).map((v) => v.sha256)).toEqual([sha256('burst 19')]);

    const after = new Set([...(await versionsOf(daily._id)), ...(await versionsOf(burst._id))].map((v) => v.storageKey));
    const thinned = before.filter((v) => !after.has(v.storageKey));
    expect(thinned.length).toBeGreaterThan(30);
    for (const v of thinned) expect(await exists(v.storageKey), v.sha256).toBe(false);
    for (const key of after) expect(await exists(key)).toBe(true);
    // The files' own contents are untouched.
    expect((await owner.get(`/file-service/download/${daily._id}`)).body).toBe('day 40');
    expect((await owner.get(`/file-service/download/${burst._id}`)).body).toBe('burst 20');
  });

  it('runs again at the same time without changing anything (idempotent), and as the clock moves on keeps to the rules', async () => {
    const snapshot = (await versionsOf(daily._id)).map((v) => v.id);
    await runJob();
    await runJob();
    expect((await versionsOf(daily._id)).map((v) => v.id)).toEqual(snapshot);

    // A week later, days 31 to 37 are past 30 days too.
    await at(T0 + 67 * DAY);
    await runJob();
    const kept = (await versionsOf(daily._id)).map((v) => Math.round((v.uploadedAt - T0) / DAY));
    // Weeks: days 28–34 keep day 34; of days 35–41, day 37 is the newest past 30 days; days 38 and
    // 39 are still kept one a day.
    expect(kept).toEqual([6, 13, 20, 27, 34, 37, 38, 39]);
  });

  it('keeps an owner’s versions within their share of a quota lowered since they were made', async () => {
    const other = new TestBrowser(t.app);
    const signedUp = await other.signUp();
    const otherId = signedUp.id;
    accounts.push({ browser: other, ...signedUp });
    // Contents of three different days: retention's time rules keep both versions.
    await at(T0 + 70 * DAY);
    const big = await upload(other, 'big.bin', 'a'.repeat(1000));
    await at(T0 + 71 * DAY);
    await replace(other, big, 'b'.repeat(1000));
    await at(T0 + 72 * DAY);
    await replace(other, big, 'c'.repeat(1000));
    expect(await versionsOf(big._id)).toHaveLength(2);

    // The administrator lowers the quota to 3000: versions may take 1500 bytes, they take 2000.
    await t.app.database.db.updateTable('account').set({ quotaBytes: 3000 }).where('id', '=', otherId).execute();
    await at(T0 + 74 * DAY);
    const oldest = (await versionsOf(big._id))[0]!;
    await runJob();
    const left = await versionsOf(big._id);
    expect(left.map((v) => v.sha256)).toEqual([sha256('b'.repeat(1000))]);
    expect(await exists(oldest.storageKey)).toBe(false);
    const usage = (await other.get('/user-service/storage')).json<{ usedBytes: number; bytes: { versions: number } }>();
    expect(usage).toMatchObject({ usedBytes: 2000, bytes: { versions: 1000 } });
    // The first owner, without a quota, lost nothing to it.
    expect((await versionsOf(daily._id)).length).toBeGreaterThan(0);
    expect(ownerId).not.toBe(otherId);
  });

  it('a file deleted for good takes its versions along; the job finds nothing of it', async () => {
    await at(T0 + 80 * DAY);
    const doomed = await upload(owner, 'doomed.txt', 'x1');
    await at(T0 + 80 * DAY + HOUR);
    await replace(owner, doomed, 'x2');
    expect(await versionsOf(doomed._id)).toHaveLength(1);
    expect((await owner.patch('/file-service/trash', { id: doomed._id })).statusCode).toBeLessThan(300);
    expect((await owner.delete('/file-service/remove', { id: doomed._id })).statusCode).toBeLessThan(300);
    await at(T0 + 82 * DAY);
    await runJob();
    expect(await versionsOf(doomed._id)).toHaveLength(0);
  });
});
