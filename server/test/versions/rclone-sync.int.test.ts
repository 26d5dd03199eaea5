import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore, createEncryptedStore } from '../../src/storage/create-stores.js';
import { rcloneAs, startDavApp, type DavAccount, type DavHarness } from '../dav/dav-support.js';

/** In CI the real client must run; elsewhere a machine without it skips this test. */
const required = process.env.CI === 'true';
const hasRclone = existsSync('/usr/bin/rclone');
const FILES = 30;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Round `round`'s content of file `i`: a different length each round, so rclone sees every change. */
const contentOf = (i: number, round: number) => `file ${i}, round ${round}: ${'x'.repeat(i * 37 + round * 101)}`;

describe('an rclone sync that overwrites files', () => {
  let h: DavHarness;
  let me: DavAccount;
  let work: string;

  beforeAll(async () => {
    h = await startDavApp();
    me = await h.account();
    work = await mkdtemp(path.join(os.tmpdir(), 'nimbus-rclone-versions-'));
  });
  afterAll(async () => {
    await h.close();
    await rm(work, { recursive: true, force: true });
  });

  it.skipIf(!hasRclone && !required)(
    'leaves every old content restorable: each old sha256 is a version whose blob reads back',
    async () => {
      const src = path.join(work, 'src');
      await mkdir(path.join(src, 'docs'), { recursive: true });
      const rclone = await rcloneAs(h.origin, me, work);
      const nameOf = (i: number) => path.join('docs', `file-${String(i).padStart(2, '0')}.txt`);
      const writeRound = async (round: number) => {
        // Each round's files are a day newer than the last round's: a sync always sees them as changed.
        const mtime = new Date(Date.UTC(2026, 0, 1 + round));
        for (let i = 0; i < FILES; i++) {
          await writeFile(path.join(src, nameOf(i)), contentOf(i, round));
          await utimes(path.join(src, nameOf(i)), mtime, mtime);
        }
      };

      await writeRound(0);
      await rclone('sync', src, 'nimbus:sync');
      await writeRound(1);
      await rclone('sync', src, 'nimbus:sync');
      await writeRound(2);
      // The last round also deletes five files: they go to the trash, their versions with them.
      for (let i = 0; i < 5; i++) await rm(path.join(src, nameOf(i)));
      await rclone('sync', src, 'nimbus:sync');
      expect(await rclone('check', src, 'nimbus:sync', '--download')).toContain('0 differences found');

      const db = h.app.database.db;
      const files = await db.selectFrom('file').selectAll().where('ownerId', '=', me.id).execute();
      const versions = await db.selectFrom('fileVersion').selectAll().where('ownerId', '=', me.id).execute();
      const store = createEncryptedStore(createBlobStore(h.config.storage), h.config.secrets.encryptionKey);
      try {
        for (let i = 0; i < FILES; i++) {
          const file = files.find((f) => f.filename === `file-${String(i).padStart(2, '0')}.txt`);
          expect(file, `file ${i}`).toBeDefined();
          expect(file!.trashedAt !== null, `file ${i} trashed`).toBe(i < 5);
          const current = i < 5 ? 1 : 2;
          expect(file!.sha256).toBe(sha256(contentOf(i, current)));
          const kept = versions.filter((v) => v.fileId === file!.id);
          // Every content before the current one, and nothing twice.
          const old = Array.from({ length: current }, (_, round) => sha256(contentOf(i, round)));
          expect(kept.map((v) => v.sha256).sort(), `file ${i}`).toEqual([...old].sort());
          for (const v of kept) {
            expect(v).toMatchObject({ authorId: me.id, via: 'WebDAV test' });
            expect(await sha256Of(await store.read(v.storageKey, v.wrappedKey, Number(v.size)))).toBe(v.sha256);
          }
        }
      } finally {
        await store.close();
      }

      // A sync with nothing changed makes no version.
      const before = versions.length;
      await rclone('sync', src, 'nimbus:sync');
      const after = await db.selectFrom('fileVersion').select('id').where('ownerId', '=', me.id).execute();
      expect(after).toHaveLength(before);

      // And a version restores through the API: the file's bytes are the old ones again.
      const file = files.find((f) => f.filename === 'file-10.txt')!;
      const first = versions.find((v) => v.fileId === file.id && v.sha256 === sha256(contentOf(10, 0)))!;
      const restored = await me.browser.post(`/file-service/versions/${file.id}/${first.id}/restore`);
      expect(restored.statusCode, restored.body).toBe(200);
      expect((await me.browser.get(`/file-service/download/${file.id}`)).body).toBe(contentOf(10, 0));
    },
  );
});
