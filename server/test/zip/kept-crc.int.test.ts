import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { createFolder, upload } from '../helpers/drive.js';
import { startDavApp, type DavAccount, type DavHarness } from '../dav/dav-support.js';
import { fileRow, unzip } from './support.js';

const MiB = 1024 * 1024;

describe('the CRC-32 kept with each file', () => {
  let t: DavHarness;
  let me: DavAccount;

  beforeAll(async () => {
    t = await startDavApp();
    me = await t.account();
  });
  afterAll(() => t.close());

  const keptCrc = async (id: string) => (await fileRow(t.app, id)).crc32;
  const setKeptCrc = (id: string, crc: number | null) =>
    t.app.database.db.updateTable('file').set({ crc32: crc }).where('id', '=', id).execute();

  it('is computed at upload, on this thread for a small file and on a hashing thread for a big one', async () => {
    const small = Buffer.from('a few bytes');
    const big = randomBytes(3 * MiB + 17);
    expect(await keptCrc((await upload(me.browser, 'small.txt', small))._id)).toBe(crc32(small));
    expect(await keptCrc((await upload(me.browser, 'big.bin', big))._id)).toBe(crc32(big));
    expect(await keptCrc((await upload(me.browser, 'empty.txt', ''))._id)).toBe(0);
  });

  it('follows new content written over a file', async () => {
    expect((await me.dav.put('/dav/notes.txt', 'first version')).status).toBe(201);
    const { _id: id } = await findFile('notes.txt');
    expect(await keptCrc(id)).toBe(crc32('first version'));
    const second = randomBytes(2 * MiB + 5);
    expect((await me.dav.put('/dav/notes.txt', second)).status).toBe(204);
    expect(await keptCrc(id)).toBe(crc32(second));
  });

  it('is what a zip records for each entry; a file stored before CRCs were kept is zipped with one computed', async () => {
    const folder = await createFolder(me.browser, 'Zipped');
    const kept = randomBytes(300_000);
    const older = randomBytes(200_000);
    const keptId = (await upload(me.browser, 'kept.bin', kept, folder._id))._id;
    const olderId = (await upload(me.browser, 'older.bin', older, folder._id))._id;
    await setKeptCrc(olderId, null);
    // A value the bytes do not have, past 2^31 (a PostgreSQL integer would not hold it): only a
    // zip that takes the kept value rather than computing it again writes it.
    const marker = 0xfffffffe;
    expect(crc32(kept)).not.toBe(marker);
    await setKeptCrc(keptId, marker);

    const response = await me.browser.get(`/folder-service/download-zip?folderIDs[]=${folder._id}`);
    expect(response.statusCode).toBe(200);
    const zip = await yauzl.fromBufferPromise(response.rawPayload);
    const crcs = new Map<string, number>();
    for await (const entry of zip.eachEntry()) crcs.set(entry.fileName, entry.crc32);
    expect(crcs.get('Zipped/kept.bin')).toBe(marker);
    expect(crcs.get('Zipped/older.bin')).toBe(crc32(older));

    await setKeptCrc(keptId, crc32(kept));
    const { files } = await unzip((await me.browser.get(`/folder-service/download-zip?folderIDs[]=${folder._id}`)).rawPayload);
    expect(files.get('Zipped/kept.bin')!.equals(kept)).toBe(true);
    expect(files.get('Zipped/older.bin')!.equals(older)).toBe(true);
  });

  async function findFile(filename: string): Promise<{ _id: string }> {
    const list = (await me.browser.get('/file-service/list')).json<{ _id: string; filename: string }[]>();
    return list.find((f) => f.filename === filename)!;
  }
});
