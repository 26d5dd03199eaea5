import type { FileDto } from '@nimbus/common';
import { sql } from 'kysely';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder, listFiles, upload } from '../helpers/drive.js';
import { multipartBody } from '../helpers/multipart.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, testDialect, type TestApp } from '../helpers/test-app.js';
import { pattern } from '../media/support.js';

async function storedObjects(dataDir: string): Promise<number> {
  const entries = await readdir(path.join(dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).length;
}

describe('jobs are enqueued with the change that needs them', () => {
  let t: TestApp;
  let alice: TestBrowser;

  const jobsFor = async (name: string, payloadPart: string): Promise<number> => {
    const rows = await t.app.database.db
      .selectFrom('job')
      .select('id')
      .where('name', '=', name)
      .where('payload', 'like', `%${payloadPart}%`)
      .execute();
    return rows.length;
  };
  const clearJobs = () => t.app.database.db.deleteFrom('job').execute();

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(() => t.close());

  it('an upload commits its thumbnail and index jobs with its row', async () => {
    const photo = await upload(alice, 'sky.png', await pattern(64, 48).png().toBuffer());
    expect(await jobsFor('file.thumbnail', photo._id)).toBe(1);
    expect(await jobsFor('search.index-file', photo._id)).toBe(1);
  });

  it('a multi-item move and a multi restore enqueue index jobs at once, as single ones do', async () => {
    const target = await createFolder(alice, 'target');
    const file = await upload(alice, 'notes.txt', 'hello');
    const folder = await createFolder(alice, 'moved');
    await clearJobs();
    const moved = await alice.patch('/file-service/move-multi', {
      items: [
        { type: 'file', id: file._id },
        { type: 'folder', id: folder._id },
      ],
      parentID: target._id,
    });
    expect(moved.statusCode).toBe(200);
    expect(await jobsFor('search.index-file', file._id)).toBe(1);
    expect(await jobsFor('search.index-folder', folder._id)).toBe(1);

    await alice.patch('/file-service/trash-multi', { items: [{ type: 'file', id: file._id }] });
    await clearJobs();
    await alice.patch('/file-service/restore-multi', { items: [{ type: 'file', id: file._id }] });
    expect(await jobsFor('search.index-file', file._id)).toBe(1);
  });

  it('a thumbnail job lost from the queue is redone by the thumbnail backfill', async () => {
    const photo = await upload(alice, 'lost.png', await pattern(64, 48).png().toBuffer());
    await t.app.database.db.deleteFrom('job').where('name', '=', 'file.thumbnail').execute();
    await t.app.background.drainJobs();
    expect(((await alice.get(`/file-service/info/${photo._id}`)).json() as FileDto).metadata.hasThumbnail).toBe(false);

    await t.app.background.schedule();
    for (let i = 0; i < 5 && (await t.app.background.drainJobs()) > 0; i++);
    expect(((await alice.get(`/file-service/info/${photo._id}`)).json() as FileDto).metadata.hasThumbnail).toBe(true);
  });

  it('an upload whose job cannot be enqueued fails whole: no row, no stored bytes', async () => {
    const db = t.app.database.db;
    const before = await storedObjects(t.dataDir);
    if (testDialect() === 'sqlite') {
      await sql`create trigger refuse_jobs before insert on job begin select raise(abort, 'queue unavailable'); end`.execute(db);
    } else {
      await sql`create function refuse_jobs() returns trigger language plpgsql as $$ begin raise exception 'queue unavailable'; end $$`.execute(
        db,
      );
      await sql`create trigger refuse_jobs before insert on job for each row execute function refuse_jobs()`.execute(db);
    }
    try {
      const { body, contentType } = await multipartBody([
        { name: 'filename', value: 'orphan.png' },
        { name: 'parent', value: '/' },
        { name: 'file', filename: 'orphan.png', data: await pattern(32, 32).png().toBuffer() },
      ]);
      const response = await alice.request('POST', '/file-service/upload', body, { 'content-type': contentType });
      expect(response.statusCode).toBe(500);
    } finally {
      await sql`drop trigger refuse_jobs${sql.raw(testDialect() === 'postgres' ? ' on job' : '')}`.execute(db);
    }
    expect((await listFiles(alice, { search: 'orphan' })).length).toBe(0);
    expect(await storedObjects(t.dataDir)).toBe(before);
  });
});

describe('an upload racing a change to its folder', () => {
  let t: TestApp;
  let alice: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(() => t.close());

  /** Uploads into `folderId`, running `meanwhile` after the file part has started. */
  async function uploadWhile(folderId: string, meanwhile: () => Promise<unknown>) {
    const { body, contentType } = await multipartBody([
      { name: 'filename', value: 'racing.bin' },
      { name: 'parent', value: folderId },
      { name: 'file', filename: 'racing.bin', data: Buffer.alloc(256 * 1024, 7) },
    ]);
    const cut = body.length - 128 * 1024;
    const payload = Readable.from(
      (async function* () {
        yield body.subarray(0, cut);
        await meanwhile();
        yield body.subarray(cut);
      })(),
    );
    return alice.request('POST', '/file-service/upload', payload, { 'content-type': contentType });
  }

  it('never leaves an active file inside a folder trashed during the upload', async () => {
    for (let round = 0; round < 5; round++) {
      const folder = await createFolder(alice, `inbox${round}`);
      const response = await uploadWhile(folder._id, () => alice.patch('/folder-service/trash', { id: folder._id }));
      expect([201, 404]).toContain(response.statusCode);
      if (response.statusCode !== 201) continue;
      const file = response.json() as FileDto;
      // Taken into the trash with its folder, and back with it.
      expect(file.metadata.trashed).toBe(true);
      await alice.patch('/folder-service/restore', { id: folder._id });
      const restored = (await alice.get(`/file-service/info/${file._id}`)).json() as FileDto;
      expect(restored.metadata.trashed).toBe(false);
      expect(restored.metadata.parent).toBe(folder._id);
    }
  });

  it('answers 404, not 500, when the folder is deleted during the upload, and keeps no bytes', async () => {
    const before = await storedObjects(t.dataDir);
    const folder = await createFolder(alice, 'doomed');
    const response = await uploadWhile(folder._id, async () => {
      await alice.patch('/folder-service/trash', { id: folder._id });
      await alice.delete('/folder-service/remove', { id: folder._id });
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'FOLDER_NOT_FOUND' });
    await t.app.background.drainJobs();
    expect(await storedObjects(t.dataDir)).toBe(before);
  });
});
