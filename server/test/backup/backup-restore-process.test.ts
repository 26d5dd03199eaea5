import SQLite from 'better-sqlite3';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, freePort, startServer, waitFor, type ServerProcess } from '../smoke/process.js';
import { HttpUser, runCli } from './cli-support.js';

const KiB = 1024;
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function start(dataDir: string): Promise<{ server: ServerProcess; origin: string }> {
  const port = await freePort();
  const server = startServer(
    dataDir,
    cleanEnv({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SEMANTIC_SEARCH: 'off' }),
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(server, 'health', async () => ((await fetch(`${origin}/health`)).ok ? true : undefined));
  return { server, origin };
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

describe('online backup of a running server, restored into a fresh DATA_DIR', () => {
  const temp: string[] = [];
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL');
    for (const dir of temp) await rm(dir, { recursive: true, force: true });
  });
  const tempDir = async (name: string) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `nimbus-${name}-`));
    temp.push(dir);
    return dir;
  };

  it(
    'backs up while uploads and deletions go on, and the restored server serves every file of the snapshot',
    { timeout: 180_000 },
    async () => {
      const liveDir = await tempDir('live');
      const live = await start(liveDir);
      servers.push(live.server);
      const email = `backup-${randomUUID()}@example.com`;
      const alice = new HttpUser(live.origin);
      await alice.signIn('/user-service/create', email, 'secret-pass');

      const contents = new Map<string, Buffer>();
      const docs = await alice.createFolder('Documents');
      const deep = await alice.createFolder('Deep', await alice.createFolder('Nested', docs));
      const parents = ['/', docs, deep];
      const before: string[] = [];
      for (let i = 0; i < 24; i++) {
        const data = randomBytes(KiB * (1 + ((i * 37) % 400)));
        const name = `before-${i}.bin`;
        contents.set(name, data);
        before.push(await alice.upload(name, data, parents[i % 3]));
      }

      // Uploads and permanent deletions keep going for as long as the backup runs.
      let backingUp = true;
      const deleted = new Set<string>();
      const churn = (async () => {
        for (let i = 0; backingUp; i++) {
          const data = randomBytes(KiB * (50 + ((i * 53) % 700)));
          const name = `during-${i}.bin`;
          contents.set(name, data);
          await alice.upload(name, data, parents[i % 3]);
          const victim = before[i];
          if (victim && i % 3 === 0) {
            await alice.send('PATCH', '/file-service/trash', { id: victim });
            await alice.send('DELETE', '/file-service/remove', { id: victim });
            deleted.add(victim);
          }
        }
      })();

      const backupDir = path.join(await tempDir('backup'), 'nightly');
      const backedUp = await runCli(['backup', backupDir], { DATA_DIR: liveDir }, liveDir);
      backingUp = false;
      await churn;
      expect(backedUp.stderr).toBe('');
      expect(backedUp.code).toBe(0);
      expect(backedUp.stdout).toContain('does NOT contain the master key');
      const manifest = JSON.parse(await readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as {
        durationMs: number;
        database: { size: number };
        blobs: { count: number; bytes: number; gone: string[] };
        counts: { files: number };
      };
      console.log(
        `backup: ${manifest.counts.files} files, ${manifest.blobs.count} blobs, ${(manifest.blobs.bytes / KiB / KiB).toFixed(1)} MiB blobs + ${(manifest.database.size / KiB).toFixed(0)} KiB database in ${manifest.durationMs} ms; gone ${manifest.blobs.gone.length}`,
      );
      await stop(live.server);

      // What the snapshot holds, read from the backup's own database copy.
      const snapshot = new SQLite(path.join(backupDir, 'database.sqlite'), { readonly: true });
      const snapshotFiles = snapshot.prepare('SELECT id, filename, storage_key AS storageKey FROM file').all() as {
        id: string;
        filename: string;
        storageKey: string;
      }[];
      snapshot.close();
      expect(snapshotFiles.length).toBe(manifest.counts.files);
      const gone = new Set(manifest.blobs.gone);
      const expected = snapshotFiles.filter((f) => !gone.has(f.storageKey));
      // Every file finished before the backup started and never deleted is in it.
      for (const id of before) if (!deleted.has(id)) expect(expected.some((f) => f.id === id)).toBe(true);

      const restoredDir = await tempDir('restored');
      const noKey = await runCli(['restore', backupDir], { DATA_DIR: restoredDir }, restoredDir);
      expect(noKey.code).toBe(1);
      expect(noKey.stderr).toContain('encryption key is not the one');
      const restored = await runCli(
        ['restore', backupDir, '--key-file', path.join(liveDir, 'secrets.json')],
        { DATA_DIR: restoredDir },
        restoredDir,
      );
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      const again = await runCli(
        ['restore', backupDir, '--key-file', path.join(liveDir, 'secrets.json')],
        { DATA_DIR: restoredDir },
        restoredDir,
      );
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('The target is not empty');

      const back = await start(restoredDir);
      servers.push(back.server);
      const aliceAgain = new HttpUser(back.origin);
      await aliceAgain.signIn('/user-service/login', email, 'secret-pass');
      for (const file of expected) {
        const data = await aliceAgain.download(file.id);
        expect(sha(data), file.filename).toBe(sha(contents.get(file.filename)!));
      }
      const dropped = snapshotFiles.filter((f) => gone.has(f.storageKey));
      for (const file of dropped) expect((await aliceAgain.send('GET', `/file-service/download/${file.id}`)).status).toBe(404);
      await stop(back.server);
    },
  );

  it('refuses bad input with a clear message', { timeout: 60_000 }, async () => {
    const dataDir = await tempDir('bad');
    const missing = await runCli(['backup'], { DATA_DIR: dataDir }, dataDir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Give one directory');
    const unknown = await runCli(['restore', dataDir, '--overwrite'], { DATA_DIR: dataDir }, dataDir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown option --overwrite');
    const notBackup = await runCli(['restore', dataDir], { DATA_DIR: dataDir }, dataDir);
    expect(notBackup.code).toBe(1);
    expect(notBackup.stderr).toContain('is not a Nimbus backup');
    const occupied = await tempDir('occupied');
    await writeFile(path.join(occupied, 'something'), 'x');
    const intoFull = await runCli(['backup', occupied], { DATA_DIR: dataDir }, dataDir);
    expect(intoFull.code).toBe(1);
    expect(intoFull.stderr).toContain('is not empty');
  });
});
