import { LIMITS, type FolderDto } from '@nimbus/common';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderRepository, type FolderRow } from '../../src/db/repositories/folder.repository.js';
import { up as breakFolderCycles } from '../../src/db/migrations/2026_11_24_0101_break_folder_cycles.js';
import { newId } from '../../src/security/ids.js';
import { createFolder, listFolders, upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

function folderRow(ownerId: string, name: string, parentId: string | null): FolderRow {
  const now = Date.now();
  return {
    id: newId(),
    ownerId,
    parentId,
    name,
    nameKey: name.toLowerCase(),
    createdAt: now,
    updatedAt: now,
    trashedAt: null,
    trashedVia: null,
  };
}

describe('folder tree integrity', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let ownerId: string;
  let folders: FolderRepository;

  const info = async (id: string): Promise<FolderDto> => (await alice.get(`/folder-service/info/${id}`)).json() as FolderDto;

  /** Two folders whose parents point at each other, as crossing moves used to leave them. */
  async function insertCycle(): Promise<[FolderRow, FolderRow]> {
    const a = folderRow(ownerId, 'loop-a', null);
    const b = folderRow(ownerId, 'loop-b', a.id);
    await folders.insert(a);
    await folders.insert(b);
    await t.app.database.db.updateTable('folder').set({ parentId: b.id }).where('id', '=', a.id).execute();
    return [a, b];
  }

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    ownerId = (await alice.signUp()).id;
    folders = new FolderRepository(t.app.database.db, t.app.database.dialect);
  });
  afterAll(() => t.close());

  it('never lets two crossing folder moves both pass and leave a cycle', async () => {
    for (let round = 0; round < 15; round++) {
      const a = await createFolder(alice, `a${round}`);
      const b = await createFolder(alice, `b${round}`);
      const [ab, ba] = await Promise.all([
        alice.patch('/folder-service/move', { id: a._id, parentID: b._id }),
        alice.patch('/folder-service/move', { id: b._id, parentID: a._id }),
      ]);
      expect([ab.statusCode, ba.statusCode].sort()).toEqual([200, 400]);
      const [ai, bi] = [await info(a._id), await info(b._id)];
      expect(ai.parent === b._id && bi.parent === a._id).toBe(false);
    }
  });

  it('never lets two crossing multi-item moves both pass', async () => {
    for (let round = 0; round < 10; round++) {
      const a = await createFolder(alice, `ma${round}`);
      const b = await createFolder(alice, `mb${round}`);
      const [ab, ba] = await Promise.all([
        alice.patch('/file-service/move-multi', { items: [{ type: 'folder', id: a._id }], parentID: b._id }),
        alice.patch('/file-service/move-multi', { items: [{ type: 'folder', id: b._id }], parentID: a._id }),
      ]);
      expect([ab.statusCode, ba.statusCode].sort()).toEqual([200, 400]);
    }
  });

  it('answers every tree walk over a damaged tree with a cycle instead of hanging', async () => {
    const [a, b] = await insertCycle();
    const x = await createFolder(alice, 'outsider');
    const inside = folderRow(ownerId, 'inside', b.id);
    await folders.insert(inside);
    expect((await alice.get(`/folder-service/move-folder-list?folderIDs[]=${a.id}`)).statusCode).toBe(200);
    // The walk up from a looping folder never reaches the root: it counts as too deep.
    expect((await alice.patch('/folder-service/move', { id: x._id, parentID: a.id })).statusCode).toBe(400);
    expect((await alice.get(`/folder-service/download-zip?folderIDs[]=${b.id}`)).statusCode).toBe(200);
    expect((await alice.patch('/folder-service/trash', { id: a.id })).statusCode).toBe(200);
    expect((await alice.patch('/folder-service/restore', { id: a.id })).statusCode).toBe(200);
    expect((await alice.patch('/folder-service/trash', { id: a.id })).statusCode).toBe(200);
    expect((await alice.delete('/folder-service/remove', { id: a.id })).statusCode).toBe(200);
    expect(await folders.findById(b.id)).toBeUndefined();
    expect(await folders.findById(inside.id)).toBeUndefined();
    expect(await folders.findById(x._id)).toBeDefined();
  });

  it('moves the members of an existing cycle to the root, deleting nothing', async () => {
    const [a, b] = await insertCycle();
    const child = folderRow(ownerId, 'below-loop', b.id);
    await folders.insert(child);
    await breakFolderCycles(t.app.database.db as never);
    expect((await folders.findById(a.id))?.parentId).toBeNull();
    expect((await folders.findById(b.id))?.parentId).toBeNull();
    expect((await folders.findById(child.id))?.parentId).toBe(b.id);
    const names = (await listFolders(alice)).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['loop-a', 'loop-b']));
  });

  it(`refuses folders nested deeper than ${LIMITS.folderDepthMax} levels, at create and at move`, async () => {
    let parent: string | null = null;
    let deepest = '';
    for (let level = 1; level <= LIMITS.folderDepthMax; level++) {
      const row = folderRow(ownerId, `level-${level}`, parent);
      await folders.insert(row);
      parent = deepest = row.id;
    }
    const tooDeep = await alice.post('/folder-service/create', { name: 'one more', parent: deepest });
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json()).toMatchObject({ code: 'FOLDER_TOO_DEEP' });

    const top = await createFolder(alice, 'two levels');
    await createFolder(alice, 'inner', top._id);
    const level254 = (await folders.findById(deepest))!.parentId!;
    const parentOf254 = (await folders.findById(level254))!.parentId!;
    const move = await alice.patch('/folder-service/move', { id: top._id, parentID: level254 });
    expect(move.statusCode).toBe(400);
    expect(move.json()).toMatchObject({ code: 'FOLDER_TOO_DEEP' });
    expect((await alice.patch('/folder-service/move', { id: top._id, parentID: parentOf254 })).statusCode).toBe(200);
  });

  it('never leaves an active folder or file inside a folder trashed at the same moment', async () => {
    for (let round = 0; round < 10; round++) {
      const target = await createFolder(alice, `target${round}`);
      const loose = await upload(alice, `loose${round}.txt`, 'x');
      await Promise.all([
        alice.post('/folder-service/create', { name: 'child', parent: target._id }),
        alice.patch('/file-service/move', { id: loose._id, parentID: target._id }),
        alice.patch('/folder-service/trash', { id: target._id }),
      ]);
      const active = await sql<{ n: number }>`
        select count(*) as n from folder where parent_id = ${target._id} and trashed_at is null`.execute(t.app.database.db);
      const activeFiles = await sql<{ n: number }>`
        select count(*) as n from file where folder_id = ${target._id} and trashed_at is null`.execute(t.app.database.db);
      expect(Number(active.rows[0]!.n) + Number(activeFiles.rows[0]!.n)).toBe(0);
    }
  });

  it(`answers at most ${LIMITS.folderListMax} folders when the client sets no limit`, async () => {
    const bob = new TestBrowser(t.app);
    const bobId = (await bob.signUp()).id;
    const rows = Array.from({ length: LIMITS.folderListMax + 3 }, (_, i) => folderRow(bobId, `f${i}`, null));
    for (let i = 0; i < rows.length; i += 500)
      await t.app.database.db
        .insertInto('folder')
        .values(rows.slice(i, i + 500))
        .execute();
    expect((await listFolders(bob)).length).toBe(LIMITS.folderListMax);
    expect((await listFolders(bob, { limit: '20' })).length).toBe(20);
    const targets = await bob.get('/folder-service/move-folder-list');
    expect((targets.json() as FolderDto[]).length).toBe(LIMITS.folderListMax);
  });
});
