import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../backup/cli-support.js';
import { startStandInHub, type StandInHub } from '../support/stand-in-hub.js';
import { REPO, closedPort, tempDir, writeFakeModel } from './support.js';

/** `npm run nimbus -- models pull|status|verify`, the built CLI as a process, against a stand-in hub. */
describe('npm run nimbus -- models', () => {
  let repoDir: string;
  let dataDir: string;
  let hub: StandInHub;
  const secrets = { SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789', ENCRYPTION_KEY: randomBytes(32).toString('hex') };
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(['models', ...args], { DATA_DIR: dataDir, SMART_SEARCH_MODEL: REPO, MODELS_URL: hub.url, ...secrets, ...env }, dataDir);
  const folder = () => path.join(dataDir, 'models', ...REPO.split('/'));

  beforeAll(async () => {
    repoDir = await tempDir('hub-repo');
    dataDir = await tempDir('models-cli');
    await writeFakeModel(repoDir);
    hub = await startStandInHub({ repos: { [REPO]: repoDir }, pathPrefix: '/hf' });
  });
  afterAll(async () => {
    await hub.close();
    await rm(repoDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says the model is not there, pulls it with progress, then reports it ready and verified', async () => {
    const before = await cli(['status']);
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('not there yet: run npm run nimbus -- models pull');

    const pulled = await cli(['pull']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain(`Fetching ${REPO}@main from ${hub.url} into ${folder()}`);
    expect(pulled.stdout).toMatch(/ 50 % \(.* MB, .* MB\/s\)/);
    expect(pulled.stdout).toMatch(/is ready: \d\.\d MB, every file verified\./);

    const status = await cli(['status', '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ model: REPO, state: 'ready', dir: folder(), revision: 'main', error: null });

    const verified = await cli(['verify']);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/7 files, .* MB, all match the manifest\./);

    const again = await cli(['pull']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('is already in');
    expect(hub.requests.filter((r) => r.includes('/api/models/'))).toHaveLength(1);
  });

  it('finds a changed file with verify and exits 1', async () => {
    const file = path.join(folder(), 'tokenizer.json');
    const original = await readFile(file);
    const changed = Buffer.from(original);
    changed[7] = changed[7]! ^ 1;
    await writeFile(file, changed);
    try {
      const verified = await cli(['verify']);
      expect(verified.code).toBe(1);
      expect(verified.stderr).toContain('tokenizer.json does not match its sha256 in the manifest');
    } finally {
      await writeFile(file, original);
    }
  });

  it('exits 1 with the reason when the hub cannot be reached or the model does not exist', async () => {
    const down = await cli(['pull'], { MODELS_DIR: path.join(dataDir, 'elsewhere'), MODELS_URL: `http://127.0.0.1:${await closedPort()}` });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^Could not fetch tester\/clip-stand-in: cannot reach 127\.0\.0\.1:\d+: ECONNREFUSED\n$/);

    const unknown = await cli(['pull'], { SMART_SEARCH_MODEL: 'tester/nothing-here' });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('has no tester/nothing-here@main (HTTP 404)');
  });

  it('refuses bad usage and a bad model setting, and says when the model is off', async () => {
    expect((await cli([])).code).toBe(2);
    expect((await cli(['fetch'])).code).toBe(2);
    expect((await cli(['pull', 'extra'])).code).toBe(2);
    expect((await cli(['status', '--force'])).code).toBe(2);
    const bad = await cli(['pull'], { SMART_SEARCH_MODEL: '../../etc' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('SMART_SEARCH_MODEL');
    const off = await cli(['status'], { SMART_SEARCH_MODEL: 'off' });
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('SMART_SEARCH_MODEL=off');
  });
});
