import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeForClip } from '../../src/search/embed/clip-image.js';

const colour = (width: number, height: number, background: string, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background } });

/** The RGB of the pixel at (x, y). */
function pixel(image: { data: Uint8Array; width: number }, x: number, y: number): number[] {
  const at = (y * image.width + x) * 3;
  return Array.from(image.data.subarray(at, at + 3));
}

/** A PNG whose header claims `width`×`height` and that holds one row: a decompression bomb's shape. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(width * 3 + 1))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('pictures decoded for the image–text model', () => {
  it('shrinks a 12-megapixel JPEG to a short side of 256 and keeps its shape', async () => {
    const photo = await colour(4000, 3000, '#3366cc').jpeg().toBuffer();
    const image = await decodeForClip(photo);
    expect([image.width, image.height]).toEqual([341, 256]);
    expect(image.data.byteLength).toBe(341 * 256 * 3);
    const [r, g, b] = pixel(image, 100, 100) as [number, number, number];
    expect(b).toBeGreaterThan(r);
    expect(b).toBeGreaterThan(g);
  });

  it('turns a photo upright by its EXIF orientation', async () => {
    // Stored landscape, left half red: shown rotated a quarter turn clockwise, the red half is on top.
    const stored = await colour(400, 300, '#0000ff')
      .composite([{ input: await colour(200, 300, '#ff0000').png().toBuffer(), left: 0, top: 0 }])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const image = await decodeForClip(stored);
    expect([image.width, image.height]).toEqual([256, 341]);
    expect((pixel(image, 128, 40) as number[])[0]).toBeGreaterThan(200);
    expect((pixel(image, 128, 300) as number[])[2]).toBeGreaterThan(200);
  });

  it('reads transparency as white, grey, 16-bit and CMYK as 8-bit RGB, and leaves a small picture its size', async () => {
    const clear = await decodeForClip(await colour(300, 300, '#00000000', 4).png().toBuffer());
    expect(pixel(clear, 10, 10)).toEqual([255, 255, 255]);
    const grey = await decodeForClip(await colour(300, 280, '#808080').greyscale().png().toBuffer());
    expect(grey.data.byteLength).toBe(grey.width * grey.height * 3);
    const deep = await decodeForClip(await colour(300, 200, '#ff8000').toColourspace('rgb16').png().toBuffer());
    expect(pixel(deep, 5, 5)).toEqual([255, 128, 0]);
    const cmyk = await decodeForClip(await colour(300, 200, '#ff8000').toColourspace('cmyk').jpeg().toBuffer());
    expect(cmyk.data.byteLength).toBe(300 * 200 * 3);
    const small = await decodeForClip(await colour(120, 60, '#123456').png().toBuffer(), 224);
    expect([small.width, small.height]).toEqual([120, 60]);
  });

  it('rejects bytes that are not a picture, and a picture over 100 megapixels before decoding it', async () => {
    await expect(decodeForClip(new TextEncoder().encode('not a picture'))).rejects.toThrow();
    // 120 megapixels: under sharp's own limit, over this one.
    await expect(decodeForClip(pngHeaderOnly(12_000, 10_000))).rejects.toThrow(/pixel limit/);
  });
});
