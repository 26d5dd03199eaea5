import type { FolderDto } from '@nimbus/common';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Db } from '../../src/db/database.js';
import type { FileRow } from '../../src/db/repositories/file.repository.js';
import { driveRepositories, UnitOfWork } from '../../src/db/unit-of-work.js';
import { JobQueue } from '../../src/jobs/queue.js';
import { IndexRequests } from '../../src/search/index-requests.js';
import { newId } from '../../src/security/ids.js';
import { systemClock } from '../../src/services/clock.js';
import { DriveEvents } from '../../src/services/drive/drive-events.js';
import { TrashService } from '../../src/services/drive/trash.service.js';
import { createFolder, listFiles } from '../helpers/drive.js';
import { fileRow } from '../helpers/rows.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, createTestDatabase, testConfig, testDialect, type TestApp } from '../helpers/test-app.js';

/** File rows straight into the database (no bytes): enough for trash and restore, quick in thousands. */
async function insertFiles(db: Db, ownerId: string, folderId: string | null, count: number, prefix = 'f'): Promise<string[]> {
  const now = Date.now();
  const rows: FileRow[] = Array.from({ length: count }, (_, i) =>
    fileRow(ownerId, `${prefix}-${i}.txt`, { folderId, uploadedAt: now - i, updatedAt: now }),
  );
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('file')
      .values(rows.slice(i, i + 500))
      .execute();
  return rows.map((r) => r.id);
}

async function count(db: Db, query: ReturnType<typeof sql<{ n: number }>>): Promise<number> {
  const { rows } = await query.execute(db);
  return Number(rows[0]!.n);
}

const activeIn = (db: Db, folderIds: string[]) =>
  count(db, sql<{ n: number }>`select count(*) as n from file where folder_id in (${sql.join(folderIds)}) and trashed_at is null`);
const trashedVia = (db: Db, folderIds: string[], via: string) =>
  count(db, sql<{ n: number }>`select count(*) as n from file where folder_id in (${sql.join(folderIds)}) and trashed_via = ${via}`);
const unfinished = (db: Db) => count(db, sql<{ n: number }>`select count(*) as n from trash_cascade`);

describe('trash and restore of large folders', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let aliceId: string;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    aliceId = (await alice.signUp()).id;
  });
  afterAll(() => t.close());

  it.skipIf(testDialect() !== 'sqlite')(
    'answers other requests while a large cascade runs on SQLite, and finishes it',
    async () => {
      const db = t.app.database.db;
      const bob = new TestBrowser(t.app);
      await bob.signUp();
      const big = await createFolder(alice, 'big');
      const inner = await createFolder(alice, 'inner', big._id);
      // Many batches: in one transaction, the cascade would hold up every other request until its end.
      await insertFiles(db, aliceId, big._id, 10_000);
      await insertFiles(db, aliceId, inner._id, 2_000);
      const folders = [big._id, inner._id];
      const total = 12_000;

      for (const [route, trashed] of [
        ['/folder-service/trash', true],
        ['/folder-service/restore', false],
      ] as const) {
        let answered = false;
        const call = alice.patch(route, { id: big._id }).then((r) => {
          answered = true;
          return r;
        });
        let servedMeanwhile = 0;
        let sawHalfWay = false;
        for (let i = 0; !answered; i++) {
          // As a request from the network comes in: after a turn of the event loop (injected ones
          // chain on promises alone, and back to back would never let the cascade's next batch start).
          await new Promise((resolve) => setImmediate(resolve));
          const list = await bob.get(`/file-service/list?parent=/&limit=${1 + (i % 50)}`);
          expect(list.statusCode).toBe(200);
          if (answered) break;
          servedMeanwhile++;
          // The folder itself changed at once; its files follow, batch by batch.
          const info = (await alice.get(`/folder-service/info/${big._id}`)).json() as FolderDto;
          const active = await activeIn(db, folders);
          if (!answered && info.trashed === trashed && active > 0 && active < total) sawHalfWay = true;
        }
        expect((await call).statusCode).toBe(200);
        expect(servedMeanwhile).toBeGreaterThan(0);
        expect(sawHalfWay).toBe(true);
        // Once answered, everything below followed.
        if (trashed) expect(await trashedVia(db, folders, big._id)).toBe(total);
        else expect(await activeIn(db, folders)).toBe(total);
        expect(await unfinished(db)).toBe(0);
      }
    },
    120_000,
  );

  it('in batches of a few files, trashes and restores exactly what a one-piece cascade would', async () => {
    const db = t.app.database.db;
    const dialect = t.app.database.dialect;
    const queue = new JobQueue(db, dialect, systemClock);
    const events = new DriveEvents(queue, new IndexRequests(queue, systemClock, false));
    const sut = new TrashService(new UnitOfWork(db, dialect), queue, events, systemClock, { cascadeBatch: 3 });
    const top = await createFolder(alice, 'top');
    const a = await createFolder(alice, 'a', top._id);
    const b = await createFolder(alice, 'b', a._id);
    const own = await createFolder(alice, 'trashed on its own', top._id);
    const files = {
      top: await insertFiles(db, aliceId, top._id, 7, 'top'),
      a: await insertFiles(db, aliceId, a._id, 5, 'a'),
      b: await insertFiles(db, aliceId, b._id, 11, 'b'),
      own: await insertFiles(db, aliceId, own._id, 4, 'own'),
    };
    await sut.trash(aliceId, [{ type: 'folder', id: own._id }]);
    await sut.trash(aliceId, [{ type: 'file', id: files.a[0]! }]);

    await sut.trash(aliceId, [{ type: 'folder', id: top._id }]);
    expect(await activeIn(db, [top._id, a._id, b._id, own._id])).toBe(0);
    expect(await trashedVia(db, [top._id, a._id, b._id], top._id)).toBe(7 + 4 + 11);
    expect(await trashedVia(db, [own._id], own._id)).toBe(4);
    expect(await unfinished(db)).toBe(0);

    // A folder taken along is restored on its own (to the root), with what came with it.
    await sut.restore(aliceId, [{ type: 'folder', id: a._id }]);
    expect(await activeIn(db, [a._id, b._id])).toBe(4 + 11);
    await sut.restore(aliceId, [{ type: 'folder', id: top._id }]);
    expect(await activeIn(db, [top._id])).toBe(7);
    // Trashed before the folder, they stay in the trash.
    expect(await activeIn(db, [own._id])).toBe(0);
    expect(await listFiles(alice, { trashMode: 'true' }).then((l) => l.map((f) => f._id))).toContain(files.a[0]);
    expect(await unfinished(db)).toBe(0);
  });
});

describe('a cascade a stopped server left half-done', () => {
  let dataDir: string;
  let drop: () => Promise<void>;
  let config: ReturnType<typeof testConfig>;
  let app: FastifyInstance | null = null;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-test-'));
    const database = await createTestDatabase(dataDir);
    drop = database.drop;
    config = testConfig(dataDir, database.config);
  });
  afterAll(async () => {
    await app?.close();
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Writes what the first transaction of a trash (or restore) writes, moves one batch on, and stops the server. */
  async function stopHalfWay(action: 'trash' | 'restore', folderId: string, ownerId: string): Promise<void> {
    const now = Date.now();
    await app!.database.db.transaction().execute(async (trx) => {
      const r = driveRepositories(trx, app!.database.dialect);
      const subtree = await r.folders.subtreeIds(ownerId, [folderId]);
      const cascade = { id: newId(), ownerId, folderId, action, trashedAt: action === 'trash' ? now : null, cascades: [folderId] };
      if (action === 'trash') await r.trash.beginCascade(cascade, await r.trash.trashFolder(folderId, subtree, now), now);
      else {
        await r.trash.restoreFolder(folderId, null, subtree, [folderId], now);
        await r.trash.beginCascade(cascade, subtree, now);
      }
      await r.trash.cascadeStep(cascade, { rows: 10 });
    });
    await app!.close();
    app = null;
  }

  it('finishes it when the server starts again, and before any trash operation of its owner', async () => {
    app = await buildApp(config);
    const alice = new TestBrowser(app);
    const ownerId = (await alice.signUp()).id;
    const top = await createFolder(alice, 'top');
    const sub = await createFolder(alice, 'sub', top._id);
    await insertFiles(app.database.db, ownerId, top._id, 40);
    await insertFiles(app.database.db, ownerId, sub._id, 30);
    const folders = [top._id, sub._id];

    // Trash: the server stops with the folders trashed and most files still active.
    await stopHalfWay('trash', top._id, ownerId);
    app = await buildApp(config);
    const db = app.database.db;
    expect(await unfinished(db)).toBe(1);
    expect(await activeIn(db, folders)).toBeGreaterThan(0);
    // What the server does when it starts: the periodic jobs, among them the one that finishes cascades.
    await app.background.schedule();
    await app.background.drainJobs();
    expect(await unfinished(db)).toBe(0);
    expect(await activeIn(db, folders)).toBe(0);
    expect(await trashedVia(db, folders, top._id)).toBe(70);

    // Restore: stopped half-way, then the owner's next trash operation finishes it first.
    await stopHalfWay('restore', top._id, ownerId);
    app = await buildApp(config);
    // The same browser, signed in, on the restarted server.
    const again = new TestBrowser(app, alice.browserId);
    for (const [name, cookie] of alice.cookies) again.cookies.set(name, cookie);
    expect(await unfinished(app.database.db)).toBe(1);
    const other = await createFolder(again, 'other');
    expect((await again.patch('/folder-service/trash', { id: other._id })).statusCode).toBe(200);
    expect(await unfinished(app.database.db)).toBe(0);
    expect(await activeIn(app.database.db, folders)).toBe(70);
  });
});
