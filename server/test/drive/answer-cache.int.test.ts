import type { FileDto, FolderDto, UserDto } from '@nimbus/common';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createFolder, upload } from '../helpers/drive.js';
import { createTestApp, testDialect, type TestApp } from '../helpers/test-app.js';
import { TestBrowser } from '../helpers/test-browser.js';

/** A statement run on a connection of its own, as another program writing to the database would. */
async function runElsewhere(t: TestApp, statement: string, params: unknown[]): Promise<void> {
  const db = t.config.db;
  if (db.driver === 'sqlite') {
    const other = new SQLite(db.path);
    try {
      other.prepare(statement).run(...params);
    } finally {
      other.close();
    }
    return;
  }
  const other = new pg.Client({ connectionString: db.url });
  await other.connect();
  try {
    let n = 0;
    await other.query(
      statement.replace(/\?/g, () => `$${++n}`),
      params,
    );
  } finally {
    await other.end();
  }
}

/** The same browser (cookies, browser id) talking to another server of the same deployment. */
function sameBrowserOn(app: FastifyInstance, browser: TestBrowser): TestBrowser {
  const other = new TestBrowser(app, browser.browserId);
  for (const [name, cookie] of browser.cookies) other.cookies.set(name, { ...cookie });
  return other;
}

describe('kept list and user answers', () => {
  let t: TestApp;
  let alice: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(() => t.close());

  /**
   * Asks until the answer comes from the cache, which must be by the third asking (an answer is
   * kept the second time its query is asked), and equal the first. So every step below starts from
   * a kept answer, which the change that follows must not leave in place.
   */
  async function kept<T>(url: string, browser = alice, app = t.app): Promise<T> {
    const first = await browser.get(url);
    expect(first.statusCode, first.body).toBe(200);
    for (let asked = 2; ; asked++) {
      const hits = app.answers.hits;
      const again = await browser.get(url);
      expect(again.body).toBe(first.body);
      expect(again.headers['content-type']).toBe(first.headers['content-type']);
      expect(again.headers['content-length']).toBe(first.headers['content-length']);
      if (app.answers.hits === hits + 1) break;
      expect(asked, `${url} not kept`).toBeLessThan(3);
    }
    return first.json<T>();
  }
  const fileNames = async (url: string) => (await kept<FileDto[]>(url)).map((f) => f.filename);
  const folderNames = async (url: string) => (await kept<FolderDto[]>(url)).map((f) => f.name);

  it('changes after every kind of change to a file', async () => {
    const docs = await createFolder(alice, 'Docs');
    const inDocs = `/file-service/list?parent=${docs._id}`;
    expect(await fileNames('/file-service/list')).toEqual([]);
    expect(await kept<FileDto[]>('/file-service/quick-list')).toEqual([]);

    const file = await upload(alice, 'a.txt', 'A');
    expect(await fileNames('/file-service/list')).toEqual(['a.txt']);
    expect((await kept<FileDto[]>('/file-service/quick-list')).map((f) => f._id)).toEqual([file._id]);

    expect((await alice.patch('/file-service/rename', { id: file._id, title: 'b.txt' })).statusCode).toBe(200);
    expect(await fileNames('/file-service/list')).toEqual(['b.txt']);
    expect(await fileNames(inDocs)).toEqual([]);

    expect((await alice.patch('/file-service/move', { id: file._id, parentID: docs._id })).statusCode).toBe(200);
    expect(await fileNames('/file-service/list')).toEqual([]);
    expect(await fileNames(inDocs)).toEqual(['b.txt']);
    expect(await fileNames('/file-service/list?trashMode=true')).toEqual([]);

    expect((await alice.patch('/file-service/trash', { id: file._id })).statusCode).toBe(200);
    expect(await fileNames(inDocs)).toEqual([]);
    expect(await fileNames('/file-service/list?trashMode=true')).toEqual(['b.txt']);

    expect((await alice.patch('/file-service/restore', { id: file._id })).statusCode).toBe(200);
    expect(await fileNames(inDocs)).toEqual(['b.txt']);
    expect(await fileNames('/file-service/list?trashMode=true')).toEqual([]);

    expect((await alice.patch(`/file-service/make-public/${file._id}`)).statusCode).toBe(200);
    const [shared] = await kept<FileDto[]>(inDocs);
    expect(shared!.metadata.linkType).toBe('public');

    expect((await alice.patch(`/file-service/remove-link/${file._id}`)).statusCode).toBe(200);
    expect((await kept<FileDto[]>(inDocs))[0]!.metadata.linkType).toBeUndefined();

    // A one-time link used up by a visitor makes the file private again.
    const oneTime = (await alice.patch(`/file-service/make-one/${file._id}`)).json<FileDto>();
    expect((await kept<FileDto[]>(inDocs))[0]!.metadata.linkType).toBe('one');
    const visitor = await t.app.inject({ method: 'GET', url: `/file-service/public/download/${file._id}/${oneTime.metadata.link}` });
    expect(visitor.statusCode).toBe(200);
    expect((await kept<FileDto[]>(inDocs))[0]!.metadata.linkType).toBeUndefined();

    expect((await alice.delete('/file-service/remove', { id: file._id })).statusCode).toBe(200);
    expect(await fileNames(inDocs)).toEqual([]);
    expect(await kept<FileDto[]>('/file-service/quick-list')).toEqual([]);
  });

  it('changes after every kind of change to a folder', async () => {
    const parent = await createFolder(alice, 'Parent');
    const inParent = `/folder-service/list?parent=${parent._id}`;
    expect(await folderNames(inParent)).toEqual([]);

    const child = await createFolder(alice, 'Child', parent._id);
    expect(await folderNames(inParent)).toEqual(['Child']);

    expect((await alice.patch('/folder-service/rename', { id: child._id, title: 'Renamed' })).statusCode).toBe(200);
    expect(await folderNames(inParent)).toEqual(['Renamed']);

    expect((await alice.patch('/folder-service/trash', { id: child._id })).statusCode).toBe(200);
    expect(await folderNames(inParent)).toEqual([]);
    expect(await folderNames('/folder-service/list?trashMode=true')).toContain('Renamed');

    expect((await alice.patch('/folder-service/restore', { id: child._id })).statusCode).toBe(200);
    expect(await folderNames(inParent)).toEqual(['Renamed']);

    expect((await alice.patch('/folder-service/move', { id: child._id, parentID: '/' })).statusCode).toBe(200);
    expect(await folderNames(inParent)).toEqual([]);
    expect(await folderNames('/folder-service/list')).toContain('Renamed');

    // Files listed inside a folder answer 404 once the folder is gone, not the kept empty list.
    const inChild = `/file-service/list?parent=${child._id}`;
    expect(await fileNames(inChild)).toEqual([]);
    expect((await alice.delete('/folder-service/remove', { id: child._id })).statusCode).toBe(200);
    expect((await alice.get(inChild)).statusCode).toBe(404);
    expect(await folderNames('/folder-service/list')).not.toContain('Renamed');
  });

  it('shows a thumbnail once the job made it', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    const photo = await upload(alice, 'photo.jpg', jpeg);
    const url = '/file-service/list?mediaMode=true';
    const before = (await kept<FileDto[]>(url)).find((f) => f._id === photo._id)!;
    expect(before.metadata.hasThumbnail).toBe(false);
    await t.app.background.drainJobs();
    const after = (await kept<FileDto[]>(url)).find((f) => f._id === photo._id)!;
    expect(after.metadata.hasThumbnail).toBe(true);
  });

  it('changes after a change made by another server of the same database', async () => {
    const other = await buildApp(t.config);
    try {
      const elsewhere = sameBrowserOn(other, alice);
      const url = '/file-service/list?sortBy=alp_asc';
      const before = await fileNames(url);
      await upload(elsewhere, 'from-elsewhere.txt', 'x');
      expect(await fileNames(url)).toEqual([...before, 'from-elsewhere.txt'].sort());
      // And the other way round: the other server's kept answer follows this server's change.
      expect(await kept<FileDto[]>(url, elsewhere, other)).toHaveLength(before.length + 1);
      await upload(alice, 'from-here.txt', 'y');
      expect((await kept<FileDto[]>(url, elsewhere, other)).map((f) => f.filename)).toContain('from-here.txt');
    } finally {
      await other.close();
    }
  });

  it('changes after a change written straight into the database', async () => {
    const file = await upload(alice, 'before.txt', 'x');
    const url = '/file-service/list?sortBy=date_desc';
    expect(await fileNames(url)).toContain('before.txt');
    await runElsewhere(t, 'UPDATE file SET filename = ?, name_key = ? WHERE id = ?', ['after.txt', 'after.txt', file._id]);
    const names = await fileNames(url);
    expect(names).toContain('after.txt');
    expect(names).not.toContain('before.txt');

    const folder = await createFolder(alice, 'Old name');
    expect(await folderNames('/folder-service/list')).toContain('Old name');
    await runElsewhere(t, 'UPDATE folder SET name = ?, name_key = ? WHERE id = ?', ['New name', 'new name', folder._id]);
    expect(await folderNames('/folder-service/list')).toContain('New name');

    const user = await kept<UserDto>('/user-service/user');
    await runElsewhere(t, 'UPDATE account SET email_verified = ? WHERE id = ?', [user.emailVerified ? 0 : 1, user._id]);
    expect((await kept<UserDto>('/user-service/user')).emailVerified).toBe(!user.emailVerified);
  });

  it('answers 401 at once after logout-all, logout or a revocation in the database, with kept answers', async () => {
    const laptop = new TestBrowser(t.app);
    const account = await laptop.signUp();
    const phone = new TestBrowser(t.app);
    expect((await phone.post('/user-service/login', { email: account.email, password: account.password })).statusCode).toBe(200);
    for (const url of ['/file-service/list', '/folder-service/list', '/file-service/quick-list', '/user-service/user']) {
      await kept(url, phone);
    }
    expect((await laptop.post('/user-service/logout-all')).statusCode).toBe(200);
    expect(phone.cookies.has('access-token')).toBe(true);
    for (const url of ['/file-service/list', '/folder-service/list', '/file-service/quick-list', '/user-service/user']) {
      expect((await phone.get(url)).statusCode).toBe(401);
    }

    const tablet = new TestBrowser(t.app);
    expect((await tablet.post('/user-service/login', { email: account.email, password: account.password })).statusCode).toBe(200);
    await kept('/file-service/list', tablet);
    const sessionId = (
      await t.app.database.db.selectFrom('session').select('id').where('browserId', '=', tablet.browserId).executeTakeFirstOrThrow()
    ).id;
    await runElsewhere(t, 'UPDATE session SET revoked_at = ? WHERE id = ?', [Date.now(), sessionId]);
    expect((await tablet.get('/file-service/list')).statusCode).toBe(401);
  });

  it("never serves one account's answer to another, even at the same drive version", async () => {
    const carol = new TestBrowser(t.app);
    const dave = new TestBrowser(t.app);
    const carolId = (await carol.signUp()).id;
    const daveId = (await dave.signUp()).id;
    await upload(carol, 'carol.txt', 'c');
    await upload(dave, 'dave.txt', 'd');
    for (const url of ['/file-service/list', '/file-service/quick-list', '/user-service/user']) {
      const mine = await kept<unknown>(url, carol);
      const theirs = await kept<unknown>(url, dave);
      expect(mine).not.toEqual(theirs);
    }
    expect((await kept<FileDto[]>('/file-service/list', carol)).map((f) => f.metadata.owner)).toEqual([carolId]);
    expect((await kept<FileDto[]>('/file-service/list', dave)).map((f) => f.metadata.owner)).toEqual([daveId]);
    expect((await kept<UserDto>('/user-service/user', dave))._id).toBe(daveId);
  });

  it('moves the drive version once per transaction on PostgreSQL, however many rows it changes', async () => {
    const grace = new TestBrowser(t.app);
    const { id } = await grace.signUp();
    const version = async () =>
      Number(
        (await t.app.database.db.selectFrom('driveVersion').select('version').where('accountId', '=', id).executeTakeFirst())?.version ?? 0,
      );
    const folder = await createFolder(grace, 'Many');
    for (let i = 0; i < 5; i++) await upload(grace, `f${i}.txt`, 'x', folder._id);
    const before = await version();
    expect((await grace.patch('/folder-service/trash', { id: folder._id })).statusCode).toBe(200);
    const after = await version();
    if (testDialect() === 'postgres') expect(after).toBe(before + 1);
    else expect(after).toBeGreaterThan(before);
  });

  it('keeps an answer at the second asking of its query, not the first', async () => {
    const ivan = new TestBrowser(t.app);
    await ivan.signUp();
    await upload(ivan, 'ünï "ivan".txt', 'i');
    for (const url of [
      '/file-service/list?once=1',
      '/folder-service/list?once=1',
      '/file-service/quick-list?once=1',
      '/user-service/user?once=1',
    ]) {
      const size = t.app.answers.size;
      const first = await ivan.get(url);
      expect(first.statusCode, url).toBe(200);
      expect(t.app.answers.size, url).toBe(size);
      const second = await ivan.get(url);
      expect(t.app.answers.size, url).toBe(size + 1);
      const hits = t.app.answers.hits;
      const third = await ivan.get(url);
      expect(t.app.answers.hits, url).toBe(hits + 1);
      for (const again of [second, third]) {
        expect(again.rawPayload.equals(first.rawPayload), url).toBe(true);
        expect({ ...again.headers, date: undefined }, url).toEqual({ ...first.headers, date: undefined });
      }
    }
  });

  it('neither keeps nor serves errors, whatever the query', async () => {
    const erin = new TestBrowser(t.app);
    await erin.signUp();
    await upload(erin, 'erin.txt', 'e');
    const frank = new TestBrowser(t.app);
    await frank.signUp();
    const franks = await createFolder(frank, 'Private');

    const bad = [
      '/file-service/list?limit=abc',
      '/file-service/list?limit=0',
      '/file-service/list?sortBy=sideways',
      `/file-service/list?parent=${franks._id}`,
      '/file-service/list?parent=%00',
      '/file-service/list?startAt=true&startAtDate=yesterday',
      '/file-service/quick-list?limit=-1',
      '/folder-service/list?trashMode=maybe',
      `/folder-service/list?parent=${franks._id}`,
    ];
    const kept0 = t.app.answers.size;
    for (const url of bad) {
      const first = await erin.get(url);
      expect(first.statusCode, url).toBeGreaterThanOrEqual(400);
      expect((await erin.get(url)).statusCode, url).toBe(first.statusCode);
    }
    expect(t.app.answers.size).toBe(kept0);

    // Unknown and repeated parameters neither break the answer nor leak into other queries.
    expect((await kept<FileDto[]>('/file-service/list?x=1&&=&parent=/', erin)).map((f) => f.filename)).toEqual(['erin.txt']);
    expect((await kept<FileDto[]>('/file-service/list?limit=1', erin)).map((f) => f.filename)).toEqual(['erin.txt']);
    expect((await frank.get(`/file-service/list?parent=${franks._id}`)).statusCode).toBe(200);
  });
});
