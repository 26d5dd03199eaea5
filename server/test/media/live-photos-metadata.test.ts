import { describe, expect, it } from 'vitest';
import { appleContentId, jpegXmp, motionClipOf, photoMotion } from '../../src/media/live-photo-metadata.js';
import { parseFfmetadata } from '../../src/media/live-photo-video.js';
import { appleMakerNote, directoryXmp, liveStill, microVideoXmp, motionPhoto } from './live-photos-files.js';

const ID = 'A1B2C3D4-0000-4000-8000-0123456789AB';

describe('Live Photo and motion photo metadata', () => {
  it('reads the ContentIdentifier of an Apple maker note, in either byte order, and nothing from a damaged one', () => {
    expect(appleContentId(appleMakerNote(ID))).toBe(ID);
    const little = appleMakerNote(ID);
    little.write('II', 12, 'latin1');
    for (const [at, width] of [
      [14, 2],
      [16, 2],
      [18, 2],
      [20, 4],
      [24, 4],
    ] as const) {
      const value = width === 2 ? little.readUInt16BE(at) : little.readUInt32BE(at);
      if (width === 2) little.writeUInt16LE(value, at);
      else little.writeUInt32LE(value, at);
    }
    expect(appleContentId(little)).toBe(ID);

    const pastEnd = appleMakerNote(ID);
    pastEnd.writeUInt32BE(pastEnd.length, 24);
    expect(appleContentId(pastEnd)).toBeNull();
    const hugeCount = appleMakerNote(ID);
    hugeCount.writeUInt16BE(0xffff, 14);
    expect(appleContentId(hugeCount)).toBeNull();
    expect(appleContentId(appleMakerNote(ID).subarray(0, 20))).toBeNull();
    expect(appleContentId(Buffer.from('Canon\0\0\0\0\0\0\0\0\0\0\0\0\0'))).toBeNull();
    // Not printable ASCII: no identifier.
    expect(appleContentId(appleMakerNote('x', Buffer.from('bad id\n\0', 'latin1')))).toBeNull();
  });

  it('finds the maker note inside a JPEG', async () => {
    expect(await photoMotion(await liveStill(ID), 'image/jpeg')).toEqual({ contentId: ID, clip: null, clipError: null });
    expect(await photoMotion(Buffer.from('not an image at all'), 'image/jpeg')).toEqual({ contentId: null, clip: null, clipError: null });
  });

  it('places a motion photo clip by directory or offset, and refuses impossible placements', async () => {
    const video = Buffer.alloc(1000, 1);
    const photo = await motionPhoto(directoryXmp(video.length), video);
    const xmp = jpegXmp(photo)!;
    expect(motionClipOf(xmp, photo.length)).toEqual({ clip: { start: photo.length - 1000, end: photo.length } });
    expect(motionClipOf(microVideoXmp(1000), 5000)).toEqual({ clip: { start: 4000, end: 5000 } });
    expect(motionClipOf(microVideoXmp(6000), 5000)).toEqual({ error: expect.stringMatching(/outside the file/) });
    expect(motionClipOf(microVideoXmp(0), 5000)).toEqual({ error: expect.stringMatching(/does not say/) });
    expect(motionClipOf(directoryXmp(0), 5000)).toEqual({ error: expect.stringMatching(/length/) });
    expect(motionClipOf(directoryXmp(5000), 5000)).toEqual({ error: expect.stringMatching(/outside the file/) });
    expect(motionClipOf('<x:xmpmeta/>', 5000)).toBeNull();
  });

  it('stops at a JPEG segment whose length runs past the file', () => {
    const broken = Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff, 0x00]);
    expect(jpegXmp(broken)).toBeNull();
    expect(jpegXmp(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(jpegXmp(Buffer.alloc(10))).toBeNull();
  });

  it("reads the global section of ffmpeg's metadata, escapes undone", () => {
    const text = ';FFMETADATA1\nmajor_brand=qt  \ncom.apple.quicktime.content.identifier=abc\\=d\n[STREAM]\nother=1\n';
    const values = parseFfmetadata(text);
    expect(values.get('com.apple.quicktime.content.identifier')).toBe('abc=d');
    expect(values.has('other')).toBe(false);
  });
});
