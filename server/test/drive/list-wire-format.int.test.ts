import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRepository, type FileRow, type ShownFile } from '../../src/db/repositories/file.repository.js';
import { FolderRepository, type FolderListQuery } from '../../src/db/repositories/folder.repository.js';
import { isoDate, presentFile, presentFileListJson } from '../../src/http/routes/files/files.presenter.js';
import { presentFolder, presentFolderListJson } from '../../src/http/routes/folders/folders.presenter.js';
import { fileRow } from '../helpers/rows.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** Names a client may send or a filesystem may hold: quotes, escapes, controls, scripts, emoji, lone surrogates. */
const NAMES = [
  'plain.txt',
  'quote " and \\ backslash.txt',
  'tab\there, newline\nthere, return\r, \b\f bell\u0007 nul\u0000.txt',
  '</script><script>alert(1)</script>.html',
  'ünïcödé — 日本語のファイル.pdf',
  'emoji 👩‍👩‍👧 family.jpg',
  'line\u2028separator\u2029.txt',
  'del\u007f and nbsp\u00a0.txt',
  'lone \ud800 high.txt',
  'lone \udc00 low.txt',
  '{"json":[1,2]}.json',
  "'single' `back`.txt",
  ' leading and trailing ',
  '.hidden',
  'x'.repeat(255),
];

const STORABLE_NAMES = NAMES.map((name) => name.replaceAll('\u0000', ''));

/** Rows of every shape a list shows: links or none, thumbnails, videos, trashed, odd sizes and dates. */
function variedRows(ownerId: string, names = NAMES): FileRow[] {
  return names.map((name, i) =>
    fileRow(ownerId, name, {
      size: [0, 1, 7, 1_234_567_890_123, Number.MAX_SAFE_INTEGER][i % 5]!,
      uploadedAt: [0, 1, 999, 951_782_400_000, 1_700_000_000_123, 253_402_300_799_999][i % 6]! + i,
      contentType: i % 3 === 0 ? 'video/mp4' : 'text/plain; charset="utf-8"',
      mediaKind: (['video', 'photo', null] as const)[i % 3]!,
      thumbnailId: i % 2 === 0 ? `thumb-${i}` : null,
      linkType: (['public', 'one', null] as const)[i % 3]!,
      linkToken: i % 3 === 2 ? null : `token-${i}-"q"`,
    }),
  );
}

describe('presentFileListJson', () => {
  const shown = (row: FileRow): ShownFile => row;

  it('writes what JSON.stringify writes of the presented files, byte for byte', () => {
    const rows = variedRows('owner-"1"').map(shown);
    rows.push(
      { ...rows[0]!, folderId: 'folder-ü', trashedAt: 5, linkType: 'public', linkToken: null },
      { ...rows[1]!, linkType: '' as never, linkToken: 'ignored' },
      { ...rows[2]!, size: Number.NaN },
      { ...rows[3]!, size: -0, uploadedAt: 253_402_300_800_000 },
      { ...rows[4]!, size: 1e21, uploadedAt: -1 },
      { ...rows[5]!, size: 0.5, uploadedAt: 1.5 },
    );
    expect(presentFileListJson(rows)).toBe(JSON.stringify(rows.map(presentFile)));
    expect(presentFileListJson([])).toBe('[]');
    expect(presentFileListJson(rows.slice(0, 1))).toBe(JSON.stringify([presentFile(rows[0]!)]));
  });

  it('throws as the presenter does for a date no Date can hold', () => {
    const [row] = variedRows('o');
    expect(() => presentFileListJson([{ ...row!, uploadedAt: 8.64e15 + 1 }])).toThrow(RangeError);
  });

  it('writes dates as toISOString does', () => {
    const edges = [0, 1, 59_999, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999, 4_107_542_400_000, 253_402_300_799_999];
    for (const ms of edges) expect(isoDate(ms)).toBe(new Date(ms).toISOString());
    // A fixed spread over 1970–9999, every millisecond field and leap day included.
    for (let ms = 0; ms < 253_402_300_799_999; ms += 7_919_999_999_983) {
      for (const d of [0, 1, 86_399_999]) expect(isoDate(ms + d)).toBe(new Date(ms + d).toISOString());
    }
    for (const ms of [-1, -86_400_000, 253_402_300_800_000, 8.64e15]) expect(isoDate(ms)).toBe(new Date(ms).toISOString());
  });
});

describe('presentFolderListJson', () => {
  it('writes what JSON.stringify writes of the presented folders, byte for byte', () => {
    const rows = NAMES.map((name, i) => ({
      id: `folder-${i}${i % 4 === 0 ? '-"ü"' : ''}`,
      ownerId: i % 5 === 0 ? 'owner-\\1' : 'owner-1',
      parentId: i % 2 === 0 ? null : `parent-${name}`,
      name,
      nameKey: name.toLowerCase(),
      createdAt: [0, 1, 999, 951_782_400_000, 1_700_000_000_123, 253_402_300_799_999][i % 6]!,
      updatedAt: [253_402_300_800_000, -1, 1.5, 86_399_999, 1_764_290_000_000][i % 5]!,
      trashedAt: i % 3 === 0 ? 5 : null,
      trashedVia: i % 6 === 0 ? 'via' : null,
    }));
    expect(presentFolderListJson(rows)).toBe(JSON.stringify(rows.map(presentFolder)));
    expect(presentFolderListJson([])).toBe('[]');
    expect(() => presentFolderListJson([{ ...rows[0]!, createdAt: 8.64e15 + 1 }])).toThrow(RangeError);
  });
});

describe('GET /file-service/list answers', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let ownerId: string;
  let files: FileRepository;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    ({ id: ownerId } = await alice.signUp());
    files = new FileRepository(t.app.database.db, t.app.database.dialect);
    // PostgreSQL stores no NUL in text.
    for (const row of variedRows(ownerId, STORABLE_NAMES)) await files.insert(row);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('the JSON of the rows read in full, presented as before, for each sort and page', async () => {
    for (const sort of ['date_asc', 'date_desc', 'alp_asc', 'alp_desc'] as const) {
      for (const limit of [50, 4]) {
        const response = await alice.get(`/file-service/list?sortBy=${sort}&limit=${limit}`);
        expect(response.statusCode).toBe(200);
        const rows = await files.list({ ownerId, folderId: null, trashMode: false, sort, limit });
        expect(rows.length).toBe(Math.min(limit, NAMES.length));
        expect(response.body).toBe(JSON.stringify(rows.map(presentFile)));
        // The kept answer is the same bytes.
        expect((await alice.get(`/file-service/list?sortBy=${sort}&limit=${limit}`)).body).toBe(response.body);
      }
    }
  });

  it('the rows a listing shows, whichever way the database hands them over', async () => {
    const q = { ownerId, folderId: null, trashMode: false, sort: 'alp_asc' as const, limit: 50 };
    const full = await files.list(q);
    const shown = await files.listShown(q);
    expect(shown).toEqual(
      full.map((r) => ({
        id: r.id,
        ownerId: r.ownerId,
        folderId: r.folderId,
        filename: r.filename,
        size: r.size,
        contentType: r.contentType,
        mediaKind: r.mediaKind,
        uploadedAt: r.uploadedAt,
        thumbnailId: r.thumbnailId,
        linkType: r.linkType,
        linkToken: r.linkToken,
        trashedAt: r.trashedAt,
      })),
    );
    // Inside a transaction the builder reads them itself.
    const inTransaction = await t.app.database.db
      .transaction()
      .execute((trx) => new FileRepository(trx, t.app.database.dialect).listShown(q));
    expect(inTransaction).toEqual(shown);
  });

  it('a page read while a transaction is under way waits for it, and shows its rows only once committed', async () => {
    const q = { ownerId, folderId: null, trashMode: false, sort: 'date_desc' as const, limit: 1 };
    const before = await files.listShown(q);
    const [row] = variedRows(ownerId, ['in-transaction.txt']);
    let read: Promise<ShownFile[]> | undefined;
    let readEarly = false;
    await t.app.database.db.transaction().execute(async (trx) => {
      await new FileRepository(trx, t.app.database.dialect).insert({ ...row!, uploadedAt: 300_000_000_000_000 });
      read = files.listShown(q);
      void read.then(() => (readEarly = true));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // On PostgreSQL the read runs beside the transaction; on SQLite it queues for it.
      if (t.app.database.dialect === 'sqlite') expect(readEarly).toBe(false);
    });
    const shown = await read!;
    if (t.app.database.dialect === 'sqlite') expect(shown.map((r) => r.filename)).toEqual(['in-transaction.txt']);
    else expect(shown).toEqual(before);
    // Outside a transaction a read sees what was committed at once.
    expect((await files.listShown(q)).map((r) => r.filename)).toEqual(['in-transaction.txt']);
    await t.app.database.db.deleteFrom('file').where('id', '=', row!.id).execute();
  });

  it('folder lists: the same rows whichever way they are read, for each shape', async () => {
    const folders = new FolderRepository(t.app.database.db, t.app.database.dialect);
    const outer = (await alice.post('/folder-service/create', { name: 'Outer "ü"', parent: '/' })).json<{ _id: string }>()._id;
    for (const name of ['b inner', 'A inner', 'c inner']) {
      expect((await alice.post('/folder-service/create', { name, parent: outer })).statusCode).toBe(201);
    }
    const gone = (await alice.post('/folder-service/create', { name: 'gone', parent: outer })).json<{ _id: string }>()._id;
    expect((await alice.patch('/folder-service/trash', { id: gone })).statusCode).toBe(200);
    const viaBuilder = (q: FolderListQuery) =>
      t.app.database.db.transaction().execute((trx) => new FolderRepository(trx, t.app.database.dialect).list(q));
    let seen = 0;
    for (const parentId of [null, outer]) {
      for (const trashMode of [false, true]) {
        for (const sort of ['date_asc', 'date_desc', 'alp_asc', 'alp_desc'] as const) {
          for (const limit of [undefined, 0, 2, 1000]) {
            const q = { ownerId, parentId, trashMode, sort, limit };
            const rows = await folders.list(q);
            expect(rows, JSON.stringify(q)).toEqual(await viaBuilder(q));
            seen += rows.length;
          }
        }
      }
    }
    expect(seen).toBeGreaterThan(0);
    for (const url of [
      '/folder-service/list',
      `/folder-service/list?parent=${outer}`,
      '/folder-service/list?trashMode=true&sortBy=alp_desc',
    ]) {
      const parentId = url.includes('parent=') ? outer : null;
      const trashMode = url.includes('trashMode');
      const sort = trashMode ? 'alp_desc' : 'date_desc';
      const response = await alice.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(JSON.stringify((await viaBuilder({ ownerId, parentId, trashMode, sort })).map(presentFolder)));
    }
    // The folder a list names, looked up for its owner only.
    const found = await folders.findOwned(ownerId, outer);
    expect(found?.name).toBe('Outer "ü"');
    expect(found).toEqual(await t.app.database.db.selectFrom('folder').selectAll().where('id', '=', outer).executeTakeFirst());
    expect(
      await t.app.database.db.transaction().execute((trx) => new FolderRepository(trx, t.app.database.dialect).findOwned(ownerId, outer)),
    ).toEqual(found);
    expect(await folders.findOwned('someone-else', outer)).toBeUndefined();
    expect(await folders.findOwned(ownerId, 'no-such-folder')).toBeUndefined();
    expect((await folders.list({ ownerId, parentId: outer, trashMode: false, sort: 'alp_asc', limit: 2 })).map((f) => f.name)).toEqual([
      'A inner',
      'b inner',
    ]);
  });

  it('the quick list and a subfolder: the same rows whichever way they are read', async () => {
    const folder = (await alice.post('/folder-service/create', { name: 'Inner', parent: '/' })).json<{ _id: string }>()._id;
    for (const row of variedRows(ownerId, ['inner-a.txt', 'inner-b.txt']))
      await files.insert({ ...row, folderId: folder, uploadedAt: row.uploadedAt + 260_000_000_000_000 });
    const viaBuilder = <T>(read: (r: FileRepository) => Promise<T>) =>
      t.app.database.db.transaction().execute((trx) => read(new FileRepository(trx, t.app.database.dialect)));
    for (const limit of [10, 50]) {
      const recent = await files.recent(ownerId, limit);
      expect(recent.map((r) => r.folderId)).toContain(folder);
      expect(recent).toEqual(await viaBuilder((r) => r.recent(ownerId, limit)));
    }
    const q = { ownerId, folderId: folder, trashMode: false, sort: 'date_asc' as const, limit: 50 };
    const inner = await files.listShown(q);
    expect(inner.map((r) => r.filename)).toEqual(['inner-a.txt', 'inner-b.txt']);
    expect(inner).toEqual(await viaBuilder((r) => r.listShown(q)));
  });

  it('the quick list: the JSON of the recent rows, presented as before', async () => {
    const response = await alice.get('/file-service/quick-list?limit=10');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(JSON.stringify((await files.recent(ownerId, 10)).map(presentFile)));
  });
});
