import { randomBytes } from 'node:crypto';
import { readdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthDetails } from '../../src/services/health/health-details.service.js';
import { upload } from '../helpers/drive.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';
import { HOUR, flipByte, putStray, storageKeyOf } from './support.js';

const TOKEN = 'health-token-0123456789abcdef';

describe('GET /health/details', () => {
  describe('without HEALTH_TOKEN', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ search: { enabled: false, embeddings: null } });
    });
    afterAll(() => t.close());

    it('answers 404, and /health stays exactly {"status":"ok"}', async () => {
      const details = await t.app.inject({ method: 'GET', url: '/health/details', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(details.statusCode).toBe(404);
      const health = await t.app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.body).toBe('{"status":"ok"}');
    });
  });

  describe('with HEALTH_TOKEN and the scrub on', () => {
    // Real time for sessions; the scrub's "ran recently" guard is passed by time moving on.
    let offset = 0;
    const clock = { now: () => Date.now() + offset };
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp(
        {
          search: { enabled: false, embeddings: null },
          integrity: { scrubIntervalMs: 60_000, scrubBatchSize: 2, healthToken: TOKEN },
        },
        { clock },
      );
    });
    afterAll(() => t.close());

    const details = (authorization?: string) =>
      t.app.inject({ method: 'GET', url: '/health/details', headers: authorization ? { authorization } : {} });

    it('refuses a missing or wrong token with 401', async () => {
      expect((await details()).statusCode).toBe(401);
      expect((await details(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
      expect((await details(`Bearer ${TOKEN.slice(0, -1)}`)).statusCode).toBe(401);
      expect((await details(`Basic ${TOKEN}`)).statusCode).toBe(401);
    });

    it('shows reachability, the job queue and what the scrub found, batch by batch', async () => {
      const me = new TestBrowser(t.app);
      await me.signUp();
      const files = [];
      for (let i = 0; i < 3; i++) files.push(await upload(me, `f${i}.bin`, randomBytes(70_000)));
      const damaged = files[1]!;
      await flipByte(t, await storageKeyOf(t, damaged));
      // Bytes stored by a process killed before it committed their row.
      const disk = new LocalDiskStore((t.config.storage as { root: string }).root);
      const stray = 'straykey0123456789';
      await putStray(disk, t.config.secrets.encryptionKey, stray);
      // Left a day ago: past the 24-hour grace period (the app's clock must stay near real time
      // for its sessions, so the file is aged instead).
      const root = (t.config.storage as { root: string }).root;
      const where = (await readdir(root, { recursive: true })).find((entry) => path.basename(entry) === stray)!;
      const dayAgo = new Date(Date.now() - 25 * HOUR);
      await utimes(path.join(root, where), dayAgo, dayAgo);

      const before = await details(`Bearer ${TOKEN}`);
      expect(before.statusCode).toBe(200);
      const fresh = before.json<HealthDetails>();
      expect(fresh).toMatchObject({ status: 'ok', database: { reachable: true }, storage: { reachable: true }, scrub: { enabled: true } });
      expect(fresh.jobs).toEqual({ pending: expect.any(Number), running: 0, failed: 0 });
      expect(fresh.scrub.state).toBeNull();

      // A batch of two files.
      await t.app.background.schedule();
      await t.app.background.drainJobs();
      const first = (await details(`Bearer ${TOKEN}`)).json<HealthDetails>();
      expect(first.scrub.state).toMatchObject({ phase: 'files', cycles: 0, current: { counts: { files: 2 } } });

      // Then the third file and the thumbnail rows of gone files; then the stored blobs, ending the cycle.
      for (let run = 0; run < 2; run++) {
        offset += 60_000;
        await t.app.background.schedule();
        await t.app.background.drainJobs();
      }
      const done = (await details(`Bearer ${TOKEN}`)).json<HealthDetails>();
      expect(done.status).toBe('problems');
      expect(done.scrub.state).toMatchObject({ phase: 'files', cursor: null, cycles: 1 });
      expect(done.scrub.state!.lastCycle!.counts).toMatchObject({ files: 3, blobsListed: 4, problems: 2 });
      expect(done.scrub.state!.lastCycle!.problems).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: 'corrupt-blob', fileId: damaged._id, repaired: false }),
          expect.objectContaining({ kind: 'stray-blob', key: stray, repaired: true }),
        ]),
      );
      // The damaged file is reported and kept for an operator to restore; the stray bytes are gone.
      expect((await me.get(`/file-service/info/${damaged._id}`)).statusCode).toBe(200);
      expect(await disk.stat(stray)).toBeNull();
    });
  });
});
