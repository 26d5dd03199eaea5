import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { FileMediaRow } from '../../src/db/repositories/file-media.repository.js';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';

export const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
/** CI installs ffmpeg (scripts/test.mjs); there its tests must run, never skip. */
export const skipWithoutFfmpeg = !hasFfmpeg && process.env.CI !== 'true';

export function mediaRow(app: FastifyInstance, fileId: string): Promise<FileMediaRow | undefined> {
  return app.database.db.selectFrom('fileMedia').selectAll().where('fileId', '=', fileId).executeTakeFirst();
}

/** Whether a stored object exists, looked up on the test app's local disk store. */
export async function isStored(dataDir: string, key: string): Promise<boolean> {
  const store = new LocalDiskStore(path.join(dataDir, 'files'));
  try {
    return (await store.stat(key)) !== null;
  } finally {
    await store.close();
  }
}

/** A test-pattern video made by ffmpeg (`testsrc`), read back as bytes. */
export async function makeVideo(dir: string, name: string, args: string[]): Promise<Buffer> {
  const out = path.join(dir, name);
  const result = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', ...args, out]);
  if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr.toString()}`);
  return readFile(out);
}

/** A colourful image, so encoders cannot shrink it to nothing and a decoder must do real work. */
export function pattern(width: number, height: number): sharp.Sharp {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + Math.floor(i / (width * 3)) * 13) & 0xff;
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

export async function dimensions(image: Buffer): Promise<{ width: number; height: number; format: string }> {
  const meta = await sharp(image).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
}
