import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createBackup, restoreBackup } from '../../src/backup/index.js';
import { upload } from '../helpers/drive.js';
import { createTestApp, testConfig, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

/** Every entry under `dir` (itself included) with its permission bits. */
async function modes(dir: string): Promise<Map<string, { mode: number; isDirectory: boolean }>> {
  const found = new Map<string, { mode: number; isDirectory: boolean }>();
  const walk = async (at: string) => {
    const info = await stat(at);
    found.set(path.relative(dir, at) || '.', { mode: info.mode & 0o777, isDirectory: info.isDirectory() });
    if (info.isDirectory()) for (const name of await readdir(at)) await walk(path.join(at, name));
  };
  await walk(dir);
  return found;
}

describe('a backup is readable by its owner alone', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let credentials: { email: string; password: string };
  let fileId: string;
  const temp: string[] = [];
  let umask: number;

  beforeAll(async () => {
    // What a shell usually has: files the process creates without a mode are world-readable.
    umask = process.umask(0o022);
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    credentials = await alice.signUp();
    fileId = (await upload(alice, 'private.txt', 'only alice may read this'))._id;
  });
  afterAll(async () => {
    await t.close();
    for (const dir of temp) await rm(dir, { recursive: true, force: true });
    process.umask(umask);
  });

  it('into an existing empty 0755 directory: the directory becomes 0700, every file 0600, no -wal or -shm', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'nimbus-backup-modes-'));
    temp.push(parent);
    const dir = path.join(parent, 'backup');
    await mkdir(dir);
    await chmod(dir, 0o755);

    const manifest = await createBackup(t.config, dir, { includeMasterKey: true });

    const entries = await modes(dir);
    expect(entries.get('.')?.mode.toString(8)).toBe('700');
    expect([...entries.keys()]).toContain('database.sqlite');
    expect([...entries.keys()].filter((name) => /-(wal|shm|journal)$/.test(name))).toEqual([]);
    for (const [name, { mode, isDirectory }] of entries) {
      expect(`${name} ${mode.toString(8)}`).toBe(`${name} ${isDirectory ? '700' : '600'}`);
    }

    // The copy restores and serves the drive as it was.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-backup-modes-target-'));
    temp.push(dataDir);
    const target = testConfig(dataDir, { driver: 'sqlite', path: path.join(dataDir, 'nimbus.sqlite') });
    const restored = await restoreBackup({ ...target, secrets: t.config.secrets }, dir, { force: false, keyFile: null });
    expect(restored.blobs).toBe(manifest.blobs.count);
    const app = await buildApp({ ...target, secrets: t.config.secrets });
    try {
      const back = new TestBrowser(app);
      expect((await back.post('/user-service/login', credentials)).statusCode).toBe(200);
      const download = await back.get(`/file-service/download/${fileId}`);
      expect(download.statusCode).toBe(200);
      expect(download.payload).toBe('only alice may read this');
    } finally {
      await app.close();
    }
  });
});
