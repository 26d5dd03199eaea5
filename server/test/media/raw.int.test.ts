import type { FileDto } from '@nimbus/common';
import exifr from 'exifr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exifSource } from '../../src/media/exif.js';
import { imageThumbnail } from '../../src/media/image-thumbnailer.js';
import { detectContentType, mediaKindOf } from '../../src/media/mime.js';
import { rawPreview } from '../../src/media/raw.js';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { PARIS, TAKEN, colourAt, makeCr3, makeDng, makeNef, makeOrf, makeRaf, short, upright, writeTiff } from './raw-files.js';
import { dimensions, mediaRow } from './support.js';

/** Where the test pattern's parts ended up. */
async function sides(image: Buffer): Promise<{ top: string; bottom: string; left: string; right: string }> {
  return {
    top: await colourAt(image, 0.5, 0.02),
    bottom: await colourAt(image, 0.5, 0.98),
    left: await colourAt(image, 0.02, 0.5),
    right: await colourAt(image, 0.98, 0.5),
  };
}

describe('the orientation of a RAW preview', () => {
  it('is applied to the embedded JPEG exactly as a viewer applies the same EXIF orientation', async () => {
    const plain = await upright(120, 80).jpeg().toBuffer();
    for (let orientation = 1; orientation <= 8; orientation++) {
      const tagged = await sharp(plain).withMetadata({ orientation }).jpeg().toBuffer();
      const expected = await imageThumbnail(tagged);
      const actual = await imageThumbnail({ data: plain, orientation });
      expect(await dimensions(actual.data), `orientation ${orientation}`).toEqual(await dimensions(expected.data));
      for (const [x, y] of [
        [0.1, 0.1],
        [0.9, 0.1],
        [0.1, 0.9],
        [0.9, 0.9],
        [0.5, 0.5],
      ] as const)
        expect(await colourAt(actual.data, x, y), `orientation ${orientation} at ${x},${y}`).toBe(await colourAt(expected.data, x, y));
    }
  });
});

describe('RAW photos', () => {
  let t: TestApp;
  let alice: TestBrowser;
  let preview: Buffer;
  let small: Buffer;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
    preview = await upright(1200, 800).jpeg({ quality: 80 }).toBuffer();
    small = await upright(160, 120).jpeg().toBuffer();
  });
  afterAll(() => t.close());

  async function info(id: string): Promise<FileDto> {
    return (await alice.get(`/file-service/info/${id}`)).json() as FileDto;
  }

  /** Uploads the RAW, runs its thumbnail job, and returns its thumbnail and full-size preview. */
  async function shown(name: string, raw: Buffer, contentType: string): Promise<{ thumbnail: Buffer; full: Buffer }> {
    const file = await upload(alice, name, raw);
    expect(file.metadata.contentType).toBe(contentType);
    await t.app.background.drainJobs();
    const ready = await info(file._id);
    expect(ready.metadata.hasThumbnail).toBe(true);
    const thumbnail = await alice.get(`/file-service/thumbnail/${ready.metadata.thumbnailID}`);
    const full = await alice.get(`/file-service/full-thumbnail/${file._id}`);
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('image/jpeg');
    // The original stays as it was uploaded.
    expect((await alice.get(`/file-service/download/${file._id}`)).rawPayload.equals(raw)).toBe(true);
    // A RAW is a photo: it is listed in the media gallery.
    const media = (await alice.get('/file-service/list?mediaMode=true&mediaFilter=photos&limit=100')).json<FileDto[]>();
    expect(media.map((f) => f._id)).toContain(file._id);
    return { thumbnail: thumbnail.rawPayload, full: full.rawPayload };
  }

  it('shows a DNG by its JPEG preview (not the sensor data nor the small IFD0 thumbnail), turned by its orientation', async () => {
    const dng = await makeDng(preview, 6);
    const { thumbnail, full } = await shown('IMG_0001.dng', dng, 'image/x-adobe-dng');
    expect(await dimensions(thumbnail)).toEqual({ width: 300, height: 450, format: 'webp' });
    expect(await dimensions(full)).toEqual({ width: 800, height: 1200, format: 'jpeg' });
    // A quarter turn clockwise: the left band (green) on top, the top (red) on the right.
    expect(await sides(full)).toMatchObject({ top: 'green', right: 'red', left: 'blue' });
  });

  it('shows a NEF by its largest JPEG (JpgFromRaw in a SubIFD, not the IFD1 thumbnail), even sniffed as plain TIFF', async () => {
    const nef = await makeNef(preview, small, 8);
    const { thumbnail, full } = await shown('DSC_0001.NEF', nef, 'image/x-nikon-nef');
    expect(await dimensions(thumbnail)).toEqual({ width: 300, height: 450, format: 'webp' });
    expect(await dimensions(full)).toEqual({ width: 800, height: 1200, format: 'jpeg' });
    // A quarter turn anticlockwise: the left band at the bottom, the top on the left.
    expect(await sides(full)).toMatchObject({ bottom: 'green', left: 'red', right: 'blue' });
  });

  it("shows an ORF (TIFF with Olympus' magic number) by a JPEG in its IFDs", async () => {
    const orf = writeTiff(
      [
        {
          tags: new Map([
            [274, short(1)],
            [259, short(6)],
          ]),
          blobs: new Map([[513, { data: preview, lengthTag: 514 }]]),
        },
      ],
      0x4f52,
    );
    const { full } = await shown('P1010001.ORF', orf, 'image/x-olympus-orf');
    expect(await dimensions(full)).toEqual({ width: 1200, height: 800, format: 'jpeg' });
    expect(await sides(full)).toMatchObject({ top: 'red', bottom: 'blue', left: 'green' });
  });

  it('shows an ORF by the large preview in its Olympus maker note, not the small IFD1 thumbnail', async () => {
    const { thumbnail, full } = await shown('P1010002.ORF', makeOrf(preview, small, 3), 'image/x-olympus-orf');
    expect(await dimensions(thumbnail)).toEqual({ width: 300, height: 200, format: 'webp' });
    expect(await dimensions(full)).toEqual({ width: 1200, height: 800, format: 'jpeg' });
    // Turned half way round: the top (red) at the bottom, the left band on the right.
    expect(await sides(full)).toMatchObject({ top: 'blue', bottom: 'red', right: 'green' });
  });

  it("shows a RAF by the JPEG its header points at, upright by that JPEG's own EXIF", async () => {
    const upsideDown = await sharp(preview).withMetadata({ orientation: 3 }).jpeg().toBuffer();
    const { full } = await shown('DSCF0001.RAF', makeRaf(upsideDown), 'image/x-fujifilm-raf');
    expect(await dimensions(full)).toEqual({ width: 1200, height: 800, format: 'jpeg' });
    expect(await sides(full)).toMatchObject({ top: 'blue', bottom: 'red', right: 'green' });
  });

  it('shows a CR3 by its PRVW preview (not the THMB), turned by the orientation in CMT1', async () => {
    const cr3 = await makeCr3(preview, small, 6);
    const { full } = await shown('IMG_0001.CR3', cr3, 'image/x-canon-cr3');
    expect(await dimensions(full)).toEqual({ width: 800, height: 1200, format: 'jpeg' });
    expect(await sides(full)).toMatchObject({ top: 'green', right: 'red' });
  });

  it('reads the date and place of a TIFF-based RAW and of a RAF', async () => {
    const expected = new Date(TAKEN.replace(/^(\d+):(\d+):(\d+) /, '$1-$2-$3T')).getTime();
    const dng = (await exifr.parse(exifSource(await makeDng(preview, 1)), { gps: true })) as {
      DateTimeOriginal: Date;
      latitude: number;
      longitude: number;
      Make: string;
    };
    expect(dng.DateTimeOriginal.getTime()).toBe(expected);
    expect(dng.latitude).toBeCloseTo(PARIS.latitude, 3);
    expect(dng.longitude).toBeCloseTo(PARIS.longitude, 3);
    expect(dng.Make).toBe('Nimbus');

    const withExif = await sharp(preview)
      .withExif({ IFD0: { Make: 'FUJIFILM' }, IFD2: { DateTimeOriginal: TAKEN } })
      .jpeg()
      .toBuffer();
    const raf = (await exifr.parse(exifSource(makeRaf(withExif)))) as { DateTimeOriginal: Date; Make: string };
    expect(raf.Make).toBe('FUJIFILM');
    expect(raf.DateTimeOriginal.getTime()).toBe(expected);
  });

  it('recognises RAW uploads by their bytes or, for TIFF-based ones, their name, as photos', async () => {
    const tiff = writeTiff([{ tags: new Map([[274, short(1)]]) }]);
    for (const [name, type] of [
      ['a.dng', 'image/x-adobe-dng'],
      ['a.CR2', 'image/x-canon-cr2'],
      ['a.nef', 'image/x-nikon-nef'],
      ['a.arw', 'image/x-sony-arw'],
      ['a.orf', 'image/x-olympus-orf'],
    ])
      expect(await detectContentType(tiff, name!)).toBe(type);
    expect(await detectContentType(tiff, 'scan.tiff')).toBe('image/tiff');
    expect(await detectContentType(await makeDng(small, 1), 'renamed.bin')).toBe('image/x-adobe-dng');
    expect(await detectContentType(makeRaf(small), 'renamed.bin')).toBe('image/x-fujifilm-raf');
    expect(await detectContentType(await makeCr3(preview, small, 1), 'renamed.bin')).toBe('image/x-canon-cr3');
    expect(mediaKindOf('image/x-canon-cr3')).toBe('photo');
  });

  it('fails, alone and for good, a RAW with no usable preview, a truncated one and one whose offsets point outside it', async () => {
    // Only sensor data, stored as lossless JPEG (SOF3): no preview a browser-grade decoder reads.
    const lossless = Buffer.from([0xff, 0xd8, 0xff, 0xc3, 0x00, 0x0b, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9]);
    const sensorOnly = writeTiff([{ tags: new Map([[259, short(7)]]), blobs: new Map([[273, { data: lossless, lengthTag: 279 }]]) }]);
    expect(rawPreview(sensorOnly)).toBeNull();
    const dng = await makeDng(preview, 1);
    const truncated = dng.subarray(0, Math.floor(dng.length / 3));
    const pointingOut = Buffer.from(dng);
    // Every offset of the preview's strip now points past the end of the file.
    const at = pointingOut.indexOf(preview.subarray(0, 16));
    pointingOut.writeUInt32LE(0x7fff_fff0, pointingOut.indexOf(Buffer.from(new Uint32Array([at]).buffer)));

    const files = [
      await upload(alice, 'sensor.dng', sensorOnly),
      await upload(alice, 'truncated.dng', truncated),
      await upload(alice, 'outside.dng', pointingOut),
      await upload(alice, 'fine.dng', dng),
    ];
    await t.app.background.drainJobs();
    const rows = await Promise.all(files.map((file) => mediaRow(t.app, file._id)));
    for (const row of rows.slice(0, 3)) expect(row).toMatchObject({ status: 'failed', thumbnailId: null, previewId: null });
    expect(rows[0]!.error).toMatch(/no embedded JPEG preview/);
    expect(rows[3]).toMatchObject({ status: 'ready' });
    expect(await t.app.database.db.selectFrom('job').selectAll().where('name', '=', 'file.thumbnail').execute()).toEqual([]);
  });
});
