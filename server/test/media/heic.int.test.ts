import type { FileDto, ShareLinkDto } from '@nimbus/common';
import exifr from 'exifr';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileMediaRow } from '../../src/db/repositories/file-media.repository.js';
import { up as upgrade } from '../../src/db/migrations/2026_12_07_1650_heic_raw_thumbnails.js';
import { decodeHeif, heifExif } from '../../src/media/heif.js';
import { analyzeImage } from '../../src/search/extract/photo.js';
import { createFolder, upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { heifEnc, skipWithoutHeifEnc, withRotation } from './heic-files.js';
import { colourAt, makeDng, upright } from './raw-files.js';
import { dimensions, mediaRow } from './support.js';

const GPS = ['-GPSLatitude=48.8584', '-GPSLatitudeRef=N', '-GPSLongitude=2.2945', '-GPSLongitudeRef=E'];

describe.skipIf(skipWithoutHeifEnc)('HEIC, HEIF and AVIF photos', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let png: Buffer;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
    png = await upright(640, 480).png().toBuffer();
  });
  afterAll(() => t.close());

  async function info(id: string): Promise<FileDto> {
    return (await alice.get(`/file-service/info/${id}`)).json() as FileDto;
  }

  async function thumbnailOf(id: string): Promise<Buffer> {
    const ready = await info(id);
    expect(ready.metadata.hasThumbnail).toBe(true);
    const response = await alice.get(`/file-service/thumbnail/${ready.metadata.thumbnailID}`);
    expect(response.statusCode).toBe(200);
    return response.rawPayload;
  }

  /** Where the test pattern's parts ended up: the colours at the top, bottom, left and right edges' middles. */
  async function sides(image: Buffer): Promise<{ top: string; bottom: string; left: string; right: string }> {
    return {
      top: await colourAt(image, 0.5, 0.02),
      bottom: await colourAt(image, 0.5, 0.98),
      left: await colourAt(image, 0.02, 0.5),
      right: await colourAt(image, 0.98, 0.5),
    };
  }
  const UPRIGHT = { top: 'red', bottom: 'blue', left: 'green', right: 'blue' };

  it('makes an upright thumbnail and a full-size JPEG preview of a HEIC, and keeps the original for download', async () => {
    const heic = heifEnc([png]);
    const file = await upload(alice, 'IMG_0001.HEIC', heic);
    expect(file.metadata.contentType).toBe('image/heic');
    expect(file.metadata.isVideo).toBe(false);
    await t.app.background.drainJobs();

    const thumbnail = await thumbnailOf(file._id);
    expect(await dimensions(thumbnail)).toEqual({ width: 300, height: 225, format: 'webp' });
    expect(await sides(thumbnail)).toMatchObject({ top: 'red', bottom: 'blue', left: 'green' });

    const full = await alice.get(`/file-service/full-thumbnail/${file._id}`);
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('image/jpeg');
    expect(await dimensions(full.rawPayload)).toEqual({ width: 640, height: 480, format: 'jpeg' });
    expect(await sides(full.rawPayload)).toEqual(UPRIGHT);
    expect((await alice.get(`/file-service/download/${file._id}`)).rawPayload.equals(heic)).toBe(true);
  });

  it('turns a HEIC upright by its own rotation (irot) once, and not again by the EXIF orientation that repeats it', async () => {
    // As a phone writes a photo taken in portrait: the pixels stored landscape, `irot` a quarter
    // turn clockwise (three anticlockwise), and EXIF orientation 6 saying the same thing.
    const heic = withRotation(heifEnc([png], { exif: ['-Orientation#=6'] }), 3);
    const file = await upload(alice, 'portrait.heic', heic);
    await t.app.background.drainJobs();

    const thumbnail = await thumbnailOf(file._id);
    expect(await dimensions(thumbnail)).toEqual({ width: 300, height: 400, format: 'webp' });
    // A quarter turn clockwise: the top (red) is now on the right, the left band (green) on top.
    expect(await sides(thumbnail)).toMatchObject({ top: 'green', right: 'red', left: 'blue' });
    const full = await alice.get(`/file-service/full-thumbnail/${file._id}`);
    expect(await dimensions(full.rawPayload)).toEqual({ width: 480, height: 640, format: 'jpeg' });
  });

  it('reads the EXIF of the primary image of a burst, not that of another image in it', async () => {
    const taken = (date: string) =>
      upright(160, 120)
        .jpeg()
        .withExif({ IFD2: { DateTimeOriginal: date } })
        .toBuffer();
    const dateOf = async (heic: Buffer) => {
      const tiff = heifExif(heic);
      return tiff && ((await exifr.parse(Buffer.from(tiff))) as { DateTimeOriginal: Date }).DateTimeOriginal.getFullYear();
    };
    expect(await dateOf(heifEnc([await taken('2020:01:02 03:04:05'), await taken('2019:01:02 03:04:05')]))).toBe(2020);
    expect(await dateOf(heifEnc([await taken('2018:01:02 03:04:05')]))).toBe(2018);
    // Only the second image has EXIF: the photo (the primary image) has no date of its own.
    expect(await dateOf(heifEnc([await upright(160, 120).png().toBuffer(), await taken('2019:01:02 03:04:05')]))).toBeNull();
  });

  it('shows the primary image of a multi-image HEIC (a burst)', async () => {
    const other = await upright(320, 480).flip().png().toBuffer();
    const burst = heifEnc([png, other]);
    const file = await upload(alice, 'burst.heic', burst);
    await t.app.background.drainJobs();
    const thumbnail = await thumbnailOf(file._id);
    expect(await dimensions(thumbnail)).toEqual({ width: 300, height: 225, format: 'webp' });
    expect(await sides(thumbnail)).toMatchObject({ top: 'red', bottom: 'blue' });
  });

  it("reads the date and place from a HEIC's EXIF where a JPEG's are read", async () => {
    const jpeg = await upright(640, 480)
      .jpeg()
      .withExif({ IFD2: { DateTimeOriginal: '2021:07:04 10:11:12' } })
      .toBuffer();
    const heic = heifEnc([jpeg], { exif: GPS });
    // heif-enc records the item's place with a base offset, which EXIF readers that skip iloc's base offset miss.
    const exif = (await exifr.parse(Buffer.from(heifExif(heic)!), { gps: true })) as { DateTimeOriginal: Date; latitude: number };
    expect(exif.latitude).toBeCloseTo(48.8584, 3);

    const fromJpeg = (await exifr.parse(jpeg)) as { DateTimeOriginal: Date };
    const analysis = await analyzeImage(heic);
    expect(analysis.contentDate).toBe(fromJpeg.DateTimeOriginal.getTime());
    expect(analysis.place).toMatch(/paris/i);
  });

  it('makes the thumbnail of an AVIF and shows the original itself full size', async () => {
    const avif = heifEnc([png], { args: ['-A'], ext: 'avif' });
    const file = await upload(alice, 'photo.avif', avif);
    expect(file.metadata.contentType).toBe('image/avif');
    await t.app.background.drainJobs();
    const thumbnail = await thumbnailOf(file._id);
    expect(await dimensions(thumbnail)).toEqual({ width: 300, height: 225, format: 'webp' });
    expect(await sides(thumbnail)).toMatchObject({ top: 'red', bottom: 'blue', left: 'green' });
    const full = await alice.get(`/file-service/full-thumbnail/${file._id}`);
    expect(full.headers['content-type']).toBe('image/avif');
    expect(full.rawPayload.equals(avif)).toBe(true);
  });

  it('fails a HEIC whose header declares 30000×30000 before decoding it, and a truncated one, each alone', async () => {
    const heic = heifEnc([png]);
    const bomb = Buffer.from(heic);
    const ispe = bomb.indexOf('ispe');
    expect(ispe).toBeGreaterThan(0);
    bomb.writeUInt32BE(30_000, ispe + 8);
    bomb.writeUInt32BE(30_000, ispe + 12);
    const truncated = heic.subarray(0, Math.floor(heic.length * 0.7));
    const garbage = Buffer.concat([heic.subarray(0, 40), Buffer.alloc(4000, 0xee)]);

    const files = [
      await upload(alice, 'bomb.heic', bomb),
      await upload(alice, 'truncated.heic', truncated),
      await upload(alice, 'garbage.heic', garbage),
      await upload(alice, 'fine.heic', heic),
    ];
    for (const file of files.slice(0, 3)) expect(file.metadata.contentType).toBe('image/heic');
    await t.app.background.drainJobs();

    const [bombRow, truncatedRow, garbageRow, fineRow] = await Promise.all(files.map((file) => mediaRow(t.app, file._id)));
    expect(bombRow).toMatchObject({ status: 'failed', thumbnailId: null, previewId: null });
    expect(bombRow!.error).toMatch(/pixel limit/i);
    expect(truncatedRow).toMatchObject({ status: 'failed', thumbnailId: null, previewId: null });
    expect(truncatedRow!.error).toMatch(/HEIF/);
    expect(garbageRow).toMatchObject({ status: 'failed', thumbnailId: null, previewId: null });
    expect(fineRow).toMatchObject({ status: 'ready' });
    // Failed for good: no job left to retry them.
    expect(await t.app.database.db.selectFrom('job').selectAll().where('name', '=', 'file.thumbnail').execute()).toEqual([]);
    expect((await alice.get(`/file-service/download/${files[0]!._id}`)).rawPayload.equals(bomb)).toBe(true);
  });

  it('gives up a HEIC still decoding at its deadline, and the next one decodes on a fresh thread', async () => {
    const large = heifEnc([await upright(3000, 2000).png().toBuffer()]);
    await expect(decodeHeif(large, 1)).rejects.toThrow(/took longer than/);
    const { width, height } = await decodeHeif(heifEnc([png]));
    expect({ width, height }).toEqual({ width: 640, height: 480 });
  });

  it("a share link's visitor sees the HEIC's thumbnail and its JPEG preview", async () => {
    const folder = await createFolder(alice, 'Holiday');
    const file = await upload(alice, 'shared.heic', heifEnc([png]), folder._id);
    await t.app.background.drainJobs();
    const link = await alice.post('/share-service/links', { itemType: 'folder', itemId: folder._id });
    expect(link.statusCode, link.body).toBe(201);
    const token = link.json<ShareLinkDto>().token;
    const visitor = new TestBrowser(t.app);
    const thumbnail = await visitor.get(`/share-service/public/${token}/files/${file._id}/thumbnail`);
    expect(thumbnail.statusCode).toBe(200);
    expect(await dimensions(thumbnail.rawPayload)).toEqual({ width: 300, height: 225, format: 'webp' });
    const preview = await visitor.get(`/share-service/public/${token}/files/${file._id}/preview`);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(preview.rawPayload).metadata()).toMatchObject({ width: 640, height: 480 });
  });

  it('shows HEIC and RAW photos stored before this version once the upgrade has run (their failed jobs forgotten, RAWs typed)', async () => {
    const heic = await upload(alice, 'old.heic', heifEnc([png]));
    const dng = await upload(alice, 'old.dng', await makeDng(await upright(600, 400).jpeg().toBuffer(), 1));
    await t.app.background.drainJobs();
    // As an earlier version left them: the HEIC failed, the DNG taken for a TIFF, not a photo, and failed.
    const db = t.app.database.db;
    await db.deleteFrom('fileMedia').where('fileId', 'in', [heic._id, dng._id]).execute();
    await db.updateTable('file').set({ thumbnailId: null }).where('id', 'in', [heic._id, dng._id]).execute();
    await db.updateTable('file').set({ contentType: 'image/tiff', mediaKind: null }).where('id', '=', dng._id).execute();
    for (const fileId of [heic._id, dng._id])
      await db
        .insertInto('fileMedia')
        .values({ ...(await failedRow(fileId)), error: 'heif: Support for this compression format has not been built in' })
        .execute();

    await upgrade(db as unknown as Kysely<unknown>);
    await t.app.background.schedule();
    await t.app.background.drainJobs();

    expect(await db.selectFrom('file').select(['contentType', 'mediaKind']).where('id', '=', dng._id).executeTakeFirst()).toEqual({
      contentType: 'image/x-adobe-dng',
      mediaKind: 'photo',
    });
    expect(await mediaRow(t.app, heic._id)).toMatchObject({ status: 'ready' });
    expect(await mediaRow(t.app, dng._id)).toMatchObject({ status: 'ready' });
    expect(await dimensions(await thumbnailOf(dng._id))).toEqual({ width: 300, height: 200, format: 'webp' });
  });

  async function failedRow(fileId: string): Promise<FileMediaRow> {
    const file = await t.app.database.db.selectFrom('file').select(['ownerId']).where('id', '=', fileId).executeTakeFirstOrThrow();
    return {
      fileId,
      ownerId: file.ownerId,
      status: 'failed',
      error: null,
      thumbnailId: null,
      thumbnailWrappedKey: null,
      thumbnailSize: null,
      thumbnailSha256: null,
      thumbnailWidth: null,
      thumbnailHeight: null,
      previewId: null,
      previewWrappedKey: null,
      previewSize: null,
      previewSha256: null,
      previewContentType: null,
      processedAt: Date.now(),
    };
  }
});
