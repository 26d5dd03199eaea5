import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { CheckReport } from '../../src/integrity/integrity-check.js';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';
import { upload } from '../helpers/drive.js';
import type { TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { flipByte, putStray, storageKeyOf } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(ROOT, 'server/dist/cli/run.js');

/** The built CLI, as `npm run nimbus -- check …` runs it, against a DATA_DIR of its own. */
function runCli(dataDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: dataDir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('npm run nimbus -- check', () => {
  let dataDir: string;
  let config: Config;
  let t: TestApp;

  beforeAll(async () => {
    // The CLI runs from the build, as the operator's command does.
    await promisify(execFile)('npx', ['tsc', '-b', 'common', 'server'], { cwd: ROOT });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-check-cli-'));
    config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEMANTIC_SEARCH: 'off' }, dataDir);
    const app = await buildApp(config);
    t = { app, config, dataDir, close: () => app.close() };
  }, 180_000);
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('exits 0 on a clean drive, 1 with problems, repairs only garbage, and 2 on a bad option', async () => {
    const me = new TestBrowser(t.app);
    await me.signUp();
    const file = await upload(me, 'photo.bin', randomBytes(150_000));
    await upload(me, 'notes.txt', 'remember the milk');

    const clean = await runCli(dataDir, ['check', '--json']);
    expect(clean.stderr).toBe('');
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout) as CheckReport).toMatchObject({ outcome: 'complete', counts: { files: 2, problems: 0 } });

    const key = await storageKeyOf(t, file);
    await flipByte(t, key);
    await putStray(new LocalDiskStore(path.join(dataDir, 'files')), config.secrets.encryptionKey, 'straycli');

    const human = await runCli(dataDir, ['check', '--rate', '50']);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('corrupt-blob');
    expect(human.stdout).toContain(`file ${file._id}`);
    expect(human.stdout).toContain('recent-stray-blob');

    const repaired = await runCli(dataDir, ['check', '--repair', '--grace-hours', '0', '--json']);
    expect(repaired.stderr).toBe('');
    expect(repaired.code).toBe(1);
    const report = JSON.parse(repaired.stdout) as CheckReport;
    expect(report.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'corrupt-blob', key, repaired: false }),
        expect.objectContaining({ kind: 'stray-blob', key: 'straycli', repaired: true }),
      ]),
    );
    const disk = new LocalDiskStore(path.join(dataDir, 'files'));
    expect(await disk.stat('straycli')).toBeNull();
    expect(await disk.stat(key)).not.toBeNull();

    const bad = await runCli(dataDir, ['check', '--rate', 'fast']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--rate must be a positive number');
  });
});
