import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
// The real photographs come through the evaluation's fetcher (apt-get download of Debian packages).
// @ts-expect-error no type declarations for the .mjs fetcher
import { fetchRealMedia } from '../../eval/fetch-real-media.mjs';

/** scikit-image's photographs, rendered as a camera's JPEGs (see eval/real-corpus.mjs). */
const PHOTOS = {
  /** astronaut.png: Eileen Collins, one face, in the upper middle. */
  astronaut: 'Camera/IMG_7101.jpg',
  /** camera.png: a man filming, black and white, one face. */
  cameraman: 'Camera/IMG_7102.jpg',
  /** coffee.png: a cup of coffee, no face. */
  coffee: 'Camera/IMG_7104.jpg',
} as const;

export type FacePhotos = Record<keyof typeof PHOTOS, Buffer>;

/** The astronaut's face in her photo, in fractions, as measured on the original by eye (x 180–265, y 70–175 of 512). */
export const ASTRONAUT_FACE = { x: 0.35, y: 0.14, width: 0.165, height: 0.205 };

/**
 * The photos, or null when they cannot be had here (no apt-get or no network outside CI, where
 * they must be had).
 */
export async function facePhotos(): Promise<FacePhotos | null> {
  let dir: string;
  try {
    dir = (await fetchRealMedia({ only: new Set(Object.values(PHOTOS)) })) as string;
  } catch (err) {
    if (process.env.CI) throw err;
    return null;
  }
  const read = async (file: string) => readFile(path.join(dir, file));
  return { astronaut: await read(PHOTOS.astronaut), cameraman: await read(PHOTOS.cameraman), coffee: await read(PHOTOS.coffee) };
}

/** How phones and editors change a photo: its copies the clustering must put with the original. */
export async function changedCopies(photo: Buffer): Promise<Record<'exifRotated' | 'cropped' | 'resized' | 'tilted', Buffer>> {
  const { width, height } = await sharp(photo).metadata();
  return {
    // Stored sideways with an EXIF orientation that turns it upright, as a phone held on its side stores it.
    exifRotated: await sharp(photo).rotate(270).withMetadata({ orientation: 6 }).jpeg({ quality: 90 }).toBuffer(),
    cropped: await sharp(photo)
      .extract({ left: Math.round(width * 0.2), top: 0, width: Math.round(width * 0.6), height: Math.round(height * 0.6) })
      .jpeg({ quality: 90 })
      .toBuffer(),
    resized: await sharp(photo)
      .resize(Math.round(width / 2))
      .jpeg({ quality: 60 })
      .toBuffer(),
    tilted: await sharp(photo).rotate(10, { background: '#ffffff' }).jpeg({ quality: 88 }).toBuffer(),
  };
}
