import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rcloneAs, runTool, startDavApp, type DavAccount, type DavHarness } from './dav-support.js';

/** In CI the real clients must run; elsewhere a machine without them skips these tests. */
const required = process.env.CI === 'true';
const hasLitmus = existsSync('/usr/bin/litmus');
const hasRclone = existsSync('/usr/bin/rclone');

async function tree(root: string, dir = ''): Promise<Record<string, string>> {
  const entries: Record<string, string> = {};
  for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      entries[`${rel}/`] = 'dir';
      Object.assign(entries, await tree(root, rel));
    } else {
      entries[rel] = createHash('sha256')
        .update(await readFile(path.join(root, rel)))
        .digest('hex');
    }
  }
  return entries;
}

describe('real WebDAV clients', () => {
  let h: DavHarness;
  let me: DavAccount;
  let work: string;
  beforeAll(async () => {
    h = await startDavApp();
    me = await h.account();
    work = await mkdtemp(path.join(os.tmpdir(), 'nimbus-dav-clients-'));
  });
  afterAll(async () => {
    await h.close();
    await rm(work, { recursive: true, force: true });
  });

  it.skipIf(!hasLitmus && !required)('litmus passes every test of basic, copymove, props, locks and http', async () => {
    expect((await me.dav.request('MKCOL', '/dav/litmus/')).status).toBe(201);
    const { code, output } = await runTool('litmus', ['-k', `${h.origin}/dav/litmus/`, me.email, me.appPassword], { cwd: work });
    const summaries = output.split('\n').filter((line) => line.startsWith('<- summary'));
    expect(summaries, output).toEqual([
      "<- summary for `basic': of 16 tests run: 16 passed, 0 failed. 100.0%",
      "<- summary for `copymove': of 13 tests run: 13 passed, 0 failed. 100.0%",
      "<- summary for `props': of 30 tests run: 30 passed, 0 failed. 100.0%",
      "<- summary for `locks': of 41 tests run: 41 passed, 0 failed. 100.0%",
      "<- summary for `http': of 4 tests run: 4 passed, 0 failed. 100.0%",
    ]);
    expect(output).not.toMatch(/WARNING/);
    expect(code).toBe(0);
  });

  it.skipIf(!hasRclone && !required)('rclone copies, checks, syncs and copies back a tree byte for byte', async () => {
    const src = path.join(work, 'src');
    const back = path.join(work, 'back');
    await mkdir(path.join(src, 'nested', 'deeper'), { recursive: true });
    await mkdir(path.join(src, 'Ünïcødé 日本 ✓'), { recursive: true });
    await mkdir(path.join(src, 'empty folder'), { recursive: true });
    await writeFile(path.join(src, 'nested', 'big.bin'), randomBytes(3 * 1024 * 1024 + 17));
    await writeFile(path.join(src, 'nested', 'deeper', 'small.txt'), 'small');
    await writeFile(path.join(src, 'Ünïcødé 日本 ✓', 'héllo wörld (1).txt'), 'unicode');
    await writeFile(path.join(src, 'zero.txt'), '');
    await writeFile(path.join(src, 'gone-later.txt'), 'delete me on sync');

    const rclone = await rcloneAs(h.origin, me, work);
    await rclone('copy', src, 'nimbus:backup', '--create-empty-src-dirs');
    expect(await rclone('check', src, 'nimbus:backup', '--download')).toContain('0 differences found');

    await writeFile(path.join(src, 'nested', 'deeper', 'small.txt'), 'changed content');
    await rm(path.join(src, 'gone-later.txt'));
    await rclone('sync', src, 'nimbus:backup', '--create-empty-src-dirs');
    expect(await rclone('check', src, 'nimbus:backup', '--download')).toContain('0 differences found');
    expect((await me.dav.get('/dav/backup/gone-later.txt')).status).toBe(404);

    await rclone('copy', 'nimbus:backup', back, '--create-empty-src-dirs');
    expect(await tree(back)).toEqual(await tree(src));
  });
});
