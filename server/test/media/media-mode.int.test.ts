import type { FileDto } from '@nimbus/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileRow } from '../../src/db/repositories/file.repository.js';
import type { MediaKind } from '../../src/db/schema.js';
import { createFolder, listFiles, upload } from '../helpers/drive.js';
import { fileRow } from '../helpers/rows.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const SORTS = ['date_asc', 'date_desc', 'alp_asc', 'alp_desc'] as const;
const FILTERS = { all: ['photo', 'video'], photos: ['photo'], videos: ['video'] } as const;
const BASE = Date.parse('2026-01-01T00:00:00Z');

function row(ownerId: string, folderId: string | null, i: number, mediaKind: MediaKind | null, trashed = false): FileRow {
  const filename = `${mediaKind ?? 'doc'}-${String((i * 37) % 101).padStart(3, '0')}.${mediaKind === 'video' ? 'mp4' : 'jpg'}`;
  // Every fifth pair shares a timestamp, so ties are broken by id.
  const uploadedAt = BASE + Math.floor(i / 2) * 60_000 + (i % 5 === 0 ? 0 : i);
  return fileRow(ownerId, filename, {
    folderId,
    size: 10,
    contentType: mediaKind === 'video' ? 'video/mp4' : mediaKind === 'photo' ? 'image/jpeg' : 'application/pdf',
    mediaKind,
    uploadedAt,
    trashedAt: trashed ? BASE : null,
  });
}

/** The list order: (name, date, id) for the name sorts, (date, name, id) for the date sorts. */
function order(rows: FileRow[], sort: (typeof SORTS)[number]): string[] {
  const key = (r: FileRow): (string | number)[] =>
    sort.startsWith('alp') ? [r.nameKey, r.uploadedAt, r.id] : [r.uploadedAt, r.nameKey, r.id];
  const sorted = [...rows].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) if (ka[i]! !== kb[i]!) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  });
  return (sort.endsWith('desc') ? sorted.reverse() : sorted).map((r) => r.id);
}

describe('media mode listing', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let visible: FileRow[];

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    const { id: aliceId } = await alice.signUp();
    const bob = new TestBrowser(t.app);
    const { id: bobId } = await bob.signUp();
    const album = await createFolder(alice, 'Album');
    const nested = await createFolder(alice, 'Nested', album._id);
    const doomed = await createFolder(alice, 'Doomed', album._id);

    const folders = [null, album._id, nested._id];
    visible = [];
    const rows: FileRow[] = [];
    for (let i = 0; i < 250; i++) visible.push(row(aliceId, folders[i % 3]!, i, i % 7 < 4 ? 'photo' : 'video'));
    rows.push(...visible);
    for (let i = 0; i < 30; i++) rows.push(row(aliceId, folders[i % 3]!, 1000 + i, null));
    for (let i = 0; i < 10; i++) rows.push(row(aliceId, null, 2000 + i, 'photo', true));
    for (let i = 0; i < 8; i++) rows.push(row(aliceId, doomed._id, 3000 + i, i % 2 ? 'photo' : 'video'));
    for (let i = 0; i < 20; i++) rows.push(row(bobId, null, 4000 + i, 'photo'));
    await t.app.database.db.insertInto('file').values(rows).execute();
    expect((await alice.patch('/folder-service/trash', { id: doomed._id })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  async function pageThrough(query: Record<string, string>): Promise<{ ids: string[]; sizes: number[] }> {
    const ids: string[] = [];
    const sizes: number[] = [];
    let last: FileDto | undefined;
    for (;;) {
      const page = await listFiles(alice, {
        mediaMode: 'true',
        ...query,
        ...(last ? { startAt: 'true', startAtDate: last.uploadDate, startAtName: last.filename, startAtId: last._id } : {}),
      });
      ids.push(...page.map((f) => f._id));
      sizes.push(page.length);
      if (page.length < 100) return { ids, sizes };
      last = page.at(-1);
    }
  }

  for (const [filter, kinds] of Object.entries(FILTERS)) {
    for (const sortBy of SORTS) {
      it(`lists ${filter} across the whole drive, not trashed, in pages of 100, sorted ${sortBy}`, async () => {
        const expected = order(
          visible.filter((r) => (kinds as readonly string[]).includes(r.mediaKind!)),
          sortBy,
        );
        const { ids, sizes } = await pageThrough({ mediaFilter: filter, sortBy });
        expect(ids).toEqual(expected);
        expect(sizes.slice(0, -1).every((n) => n === 100)).toBe(true);
      });
    }
  }

  it('shows 100 per page by default and never trashed media, even in trash mode', async () => {
    const first = await listFiles(alice, { mediaMode: 'true' });
    expect(first).toHaveLength(100);
    expect(first.every((f) => !f.metadata.trashed)).toBe(true);
    const inTrashMode = await pageThrough({ trashMode: 'true' });
    expect(inTrashMode.ids).toHaveLength(250);
  });

  it('classifies uploads by their sniffed content type', async () => {
    const carol = new TestBrowser(t.app);
    await carol.signUp();
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4cf0000000049454e44ae426082',
      'hex',
    );
    const mp4 = Buffer.from('000000206674797069736f6d0000020069736f6d69736f32617663316d703431', 'hex');
    const photo = await upload(carol, 'no-extension', png);
    const video = await upload(carol, 'clip.bin', mp4);
    await upload(carol, 'readme.txt', 'text');
    const all = await listFiles(carol, { mediaMode: 'true' });
    expect(all.map((f) => f._id).sort()).toEqual([photo._id, video._id].sort());
    expect((await listFiles(carol, { mediaMode: 'true', mediaFilter: 'videos' })).map((f) => f._id)).toEqual([video._id]);
    expect(video.metadata.isVideo).toBe(true);
  });

  it('rejects an unknown media filter or an oversized page with 400', async () => {
    expect((await alice.get('/file-service/list?mediaMode=true&mediaFilter=music')).statusCode).toBe(400);
    expect((await alice.get('/file-service/list?mediaMode=true&limit=101')).statusCode).toBe(400);
  });
});
