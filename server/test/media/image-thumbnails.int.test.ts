import type { FileDto } from '@nimbus/common';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../helpers/drive.js';
import { TestBrowser } from '../helpers/test-browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { dimensions, isStored, mediaRow, pattern } from './support.js';

const FORMATS = [
  { name: 'photo.jpg', type: 'image/jpeg', make: (s: sharp.Sharp) => s.jpeg(), displayable: true },
  { name: 'photo.png', type: 'image/png', make: (s: sharp.Sharp) => s.png(), displayable: true },
  { name: 'photo.webp', type: 'image/webp', make: (s: sharp.Sharp) => s.webp(), displayable: true },
  { name: 'photo.gif', type: 'image/gif', make: (s: sharp.Sharp) => s.gif(), displayable: true },
  { name: 'photo.avif', type: 'image/avif', make: (s: sharp.Sharp) => s.avif({ effort: 0 }), displayable: true },
  { name: 'photo.tiff', type: 'image/tiff', make: (s: sharp.Sharp) => s.tiff(), displayable: false },
] as const;

describe('image thumbnails and previews', () => {
  let t: TestApp;
  let alice: TestBrowser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = new TestBrowser(t.app);
    await alice.signUp();
  });
  afterAll(() => t.close());

  async function info(id: string): Promise<FileDto> {
    return (await alice.get(`/file-service/info/${id}`)).json() as FileDto;
  }

  for (const format of FORMATS) {
    it(`makes a 300 px wide thumbnail of a ${format.type} and shows it full size`, async () => {
      const original = await format.make(pattern(640, 480)).toBuffer();
      const file = await upload(alice, format.name, original);
      expect(file.metadata.contentType).toBe(format.type);
      expect(file.metadata.hasThumbnail).toBe(false);
      await t.app.background.drainJobs();

      const ready = await info(file._id);
      expect(ready.metadata.hasThumbnail).toBe(true);
      expect(ready.metadata.isVideo).toBe(false);
      const thumbnail = await alice.get(`/file-service/thumbnail/${ready.metadata.thumbnailID}`);
      expect(thumbnail.statusCode).toBe(200);
      expect(thumbnail.headers['content-type']).toBe('image/webp');
      expect(thumbnail.headers['cache-control']).toContain('immutable');
      expect(await dimensions(thumbnail.rawPayload)).toEqual({ width: 300, height: 225, format: 'webp' });

      const full = await alice.get(`/file-service/full-thumbnail/${file._id}`);
      expect(full.statusCode).toBe(200);
      expect(full.headers['content-disposition']).toMatch(/^inline/);
      if (format.displayable) {
        expect(full.headers['content-type']).toBe(format.type);
        expect(full.rawPayload.equals(original)).toBe(true);
      } else {
        expect(full.headers['content-type']).toBe('image/webp');
        expect(await dimensions(full.rawPayload)).toEqual({ width: 640, height: 480, format: 'webp' });
      }
    });
  }

  it('turns an image upright by its EXIF orientation (6: rotated 90°)', async () => {
    const sideways = await pattern(1200, 600).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
    const file = await upload(alice, 'portrait.jpg', sideways);
    await t.app.background.drainJobs();
    const thumbnail = await alice.get(`/file-service/thumbnail/${(await info(file._id)).metadata.thumbnailID}`);
    expect(await dimensions(thumbnail.rawPayload)).toEqual({ width: 300, height: 600, format: 'webp' });
  });

  it('leaves small images at their size and keeps a very tall one within bounds', async () => {
    const small = await upload(alice, 'icon.png', await pattern(40, 30).png().toBuffer());
    const tall = await upload(alice, 'receipt.png', await pattern(400, 4000).png().toBuffer());
    await t.app.background.drainJobs();
    const sizeOf = async (id: string) =>
      dimensions((await alice.get(`/file-service/thumbnail/${(await info(id)).metadata.thumbnailID}`)).rawPayload);
    expect(await sizeOf(small._id)).toMatchObject({ width: 40, height: 30 });
    expect(await sizeOf(tall._id)).toMatchObject({ width: 90, height: 900 });
  });

  it('records a corrupt image as failed, once, without touching the upload or the server', async () => {
    const corrupt = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(5000, 0x5a)]);
    const file = await upload(alice, 'broken.jpg', corrupt);
    expect(file.metadata.contentType).toBe('image/jpeg');
    await t.app.background.drainJobs();
    await t.app.background.drainJobs();

    const row = await mediaRow(t.app, file._id);
    expect(row).toMatchObject({ status: 'failed', thumbnailId: null });
    expect(row!.error).toMatch(/Cannot read the image/);
    const jobs = await t.app.database.db.selectFrom('job').selectAll().where('name', '=', 'file.thumbnail').execute();
    expect(jobs).toEqual([]);
    expect((await info(file._id)).metadata.hasThumbnail).toBe(false);
    expect((await alice.get(`/file-service/download/${file._id}`)).rawPayload.equals(corrupt)).toBe(true);
    expect((await alice.get('/health')).statusCode).toBe(200);
  });

  it('records an HEIC that this build cannot decode as failed, and shows no preview', async () => {
    // An AVIF relabelled as HEVC-coded HEIC: sniffed as image/heic, undecodable without an HEVC decoder.
    const heic = Buffer.from(await pattern(64, 48).avif({ effort: 0 }).toBuffer());
    for (const [from, to] of [
      ['avif', 'heic'],
      ['av01', 'hvc1'],
      ['av1C', 'hvcC'],
    ]) {
      for (let at = heic.indexOf(from!); at >= 0; at = heic.indexOf(from!)) heic.write(to!, at, 'latin1');
    }
    const file = await upload(alice, 'IMG_0001.HEIC', heic);
    expect(file.metadata.contentType).toBe('image/heic');
    await t.app.background.drainJobs();
    expect((await mediaRow(t.app, file._id))?.status).toBe('failed');
    expect((await alice.get(`/file-service/full-thumbnail/${file._id}`)).statusCode).toBe(404);
  });

  it('is idempotent: a second thumbnail job for a processed file changes nothing', async () => {
    const file = await upload(alice, 'again.png', await pattern(320, 200).png().toBuffer());
    await t.app.background.drainJobs();
    const before = await mediaRow(t.app, file._id);
    const { JobQueue } = await import('../../src/jobs/queue.js');
    const queue = new JobQueue(t.app.database.db, t.app.database.dialect, { now: () => Date.now() });
    expect(await queue.enqueue('file.thumbnail', { fileId: file._id })).toBe(true);
    await t.app.background.drainJobs();
    expect(await mediaRow(t.app, file._id)).toEqual(before);
    expect((await info(file._id)).metadata.thumbnailID).toBe(before!.thumbnailId);
  });

  it('gives no thumbnail job to files that are not photos or videos', async () => {
    const file = await upload(alice, 'notes.txt', 'just text');
    await t.app.background.drainJobs();
    // A thumbnail job would have recorded that it skipped the file.
    expect(await mediaRow(t.app, file._id)).toBeUndefined();
  });

  it('deletes thumbnails and previews with the file', async () => {
    const file = await upload(alice, 'scan.tiff', await pattern(200, 100).tiff().toBuffer());
    await t.app.background.drainJobs();
    const row = (await mediaRow(t.app, file._id))!;
    expect(row.previewId).not.toBeNull();
    expect(await isStored(t.dataDir, row.thumbnailId!)).toBe(true);
    expect(await isStored(t.dataDir, row.previewId!)).toBe(true);

    expect((await alice.delete('/file-service/remove', { id: file._id })).statusCode).toBe(200);
    await t.app.background.drainJobs();
    expect(await mediaRow(t.app, file._id)).toBeUndefined();
    expect(await isStored(t.dataDir, row.thumbnailId!)).toBe(false);
    expect(await isStored(t.dataDir, row.previewId!)).toBe(false);
    expect((await alice.get(`/file-service/thumbnail/${row.thumbnailId}`)).statusCode).toBe(404);
  });

  it("answers 404 for another user's thumbnails and images, 401 when signed out, 400 for bad ids", async () => {
    const file = await upload(alice, 'private.png', await pattern(100, 100).png().toBuffer());
    await t.app.background.drainJobs();
    const thumbnailID = (await info(file._id)).metadata.thumbnailID;
    const bob = new TestBrowser(t.app);
    await bob.signUp();
    expect((await bob.get(`/file-service/thumbnail/${thumbnailID}`)).statusCode).toBe(404);
    expect((await bob.get(`/file-service/full-thumbnail/${file._id}`)).statusCode).toBe(404);
    const anonymous = new TestBrowser(t.app);
    expect((await anonymous.get(`/file-service/thumbnail/${thumbnailID}`)).statusCode).toBe(401);
    expect((await anonymous.get(`/file-service/full-thumbnail/${file._id}`)).statusCode).toBe(401);
    expect((await alice.get(`/file-service/thumbnail/${'x'.repeat(80)}`)).statusCode).toBe(400);
    const text = await upload(alice, 'text.txt', 'text');
    expect((await alice.get(`/file-service/full-thumbnail/${text._id}`)).statusCode).toBe(404);
  });
});
