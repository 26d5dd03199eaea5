import type { AdminOverviewDto } from '@nimbus/common';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthDetails } from '../../src/services/health/health-details.service.js';
import { accountOf, type SignedUp } from '../admin/support.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startStandInHub, type StandInHub } from '../support/stand-in-hub.js';
import { REPO, closedPort, tempDir, writeFakeModel } from './support.js';

const TOKEN = 'health-token-0123456789abcdef';

/** The model's state as an operator's monitoring (`GET /health/details`) and the admin overview show it. */
describe('the AI model in /health/details and the admin overview', () => {
  let repoDir: string;
  let hub: StandInHub;

  beforeAll(async () => {
    repoDir = await tempDir('hub-repo');
    await writeFakeModel(repoDir);
    hub = await startStandInHub({ repos: { [REPO]: repoDir } });
  });
  afterAll(async () => {
    await hub.close();
    await rm(repoDir, { recursive: true, force: true });
  });

  async function appWith(hubUrl: string | null, searchEnabled = true): Promise<{ t: TestApp; admin: SignedUp }> {
    const modelsDir = await tempDir('models');
    const t = await createTestApp({
      search: {
        enabled: searchEnabled,
        embeddings: null,
        smartModel: hubUrl ? { id: REPO, revision: 'main', dir: modelsDir, hubUrl } : null,
      },
      integrity: { scrubIntervalMs: 0, scrubBatchSize: 10, healthToken: TOKEN },
    });
    const close = t.close.bind(t);
    t.close = async () => {
      await close();
      await rm(modelsDir, { recursive: true, force: true });
    };
    return { t, admin: await accountOf(t, 'admin') };
  }
  const modelIn = async (t: TestApp) =>
    (await t.app.inject({ method: 'GET', url: '/health/details', headers: { authorization: `Bearer ${TOKEN}` } })).json<HealthDetails>()
      .model;
  const overviewModel = async (admin: SignedUp) => (await admin.browser.get('/admin-service/overview')).json<AdminOverviewDto>().model;

  it('shows the download going on, then the model ready', async () => {
    hub.throttle(1_000_000);
    const { t, admin } = await appWith(hub.url);
    try {
      await expect.poll(async () => (await modelIn(t)).bytesDone, { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);
      const during = await modelIn(t);
      expect(during).toMatchObject({ model: REPO, state: 'downloading', error: null });
      expect(during.bytesDone).toBeLessThan(during.bytesTotal);
      expect(await overviewModel(admin)).toMatchObject({ name: REPO, state: 'downloading' });

      await expect.poll(async () => (await modelIn(t)).state, { timeout: 15_000, interval: 100 }).toBe('ready');
      const ready = await modelIn(t);
      expect(ready).toEqual({
        model: REPO,
        state: 'ready',
        bytesDone: ready.bytesTotal,
        bytesTotal: ready.bytesTotal,
        error: null,
        dir: expect.stringMatching(new RegExp(`${path.sep}tester${path.sep}clip-stand-in$`)),
      });
      expect(await overviewModel(admin)).toEqual({
        name: REPO,
        state: 'ready',
        bytesDone: ready.bytesTotal,
        bytesTotal: ready.bytesTotal,
        error: null,
      });
    } finally {
      hub.throttle(null);
      await t.close();
    }
  });

  it('shows a failed download with its reason while the server runs on, and "off" with search off', async () => {
    const down = `127.0.0.1:${await closedPort()}`;
    const { t, admin } = await appWith(`http://${down}`);
    try {
      await expect.poll(async () => (await modelIn(t)).state, { timeout: 5000, interval: 50 }).toBe('failed');
      const reason = `cannot reach ${down}: ECONNREFUSED`;
      expect((await modelIn(t)).error).toBe(reason);
      const details = await t.app.inject({ method: 'GET', url: '/health/details', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(details.statusCode).toBe(200);
      expect(details.json<HealthDetails>().status).toBe('ok');
      expect(await overviewModel(admin)).toEqual({ name: REPO, state: 'failed', bytesDone: 0, bytesTotal: 0, error: reason });
    } finally {
      await t.close();
    }

    const requests = hub.requests.length;
    const off = await appWith(hub.url, false);
    try {
      expect(hub.requests.length).toBe(requests);
      expect(await modelIn(off.t)).toEqual({ model: null, state: 'off', bytesDone: 0, bytesTotal: 0, error: null, dir: null });
      expect(await overviewModel(off.admin)).toEqual({ name: null, state: 'off', bytesDone: 0, bytesTotal: 0, error: null });
    } finally {
      await off.t.close();
    }
  });
});
