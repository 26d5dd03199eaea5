import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { EncryptedStore } from '../storage/blob-store.js';
import type { IndexedFile } from './db/index-source.repository.js';
import { isTextLike } from './extract/plain.js';

/** Whole files up to this size are analysed (PDF, DOCX and images need all their bytes). */
const MAX_ANALYZED_BYTES = 64 * 1024 * 1024;
/** Text-like files: the head is enough for "the first few thousand words". */
const TEXT_HEAD_BYTES = 512 * 1024;
/** ffprobe needs a seekable file; larger videos are indexed by name and kind. */
const MAX_PROBED_BYTES = 4 * 1024 * 1024 * 1024;

export type FileContent = { bytes: Uint8Array } | { path: string; cleanup(): Promise<void> } | null;

/** The plaintext the analysis needs: bytes in memory, a temporary file for videos, or nothing. */
export async function readContent(store: EncryptedStore, file: IndexedFile): Promise<FileContent> {
  if (file.size === 0) return null;
  if (file.contentType.startsWith('video/') || file.contentType.startsWith('audio/')) {
    if (file.size > MAX_PROBED_BYTES) return null;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nimbus-probe-'));
    const target = path.join(dir, 'media');
    const cleanup = () => rm(dir, { recursive: true, force: true });
    try {
      await pipeline(await store.read(file.storageKey, file.wrappedKey, file.size), createWriteStream(target));
    } catch (err) {
      await cleanup();
      throw err;
    }
    return { path: target, cleanup };
  }
  const textLike = isTextLike(file.contentType, file.filename);
  if (!textLike && file.size > MAX_ANALYZED_BYTES) return null;
  const length = textLike ? Math.min(file.size, TEXT_HEAD_BYTES) : file.size;
  const stream = await store.read(
    file.storageKey,
    file.wrappedKey,
    file.size,
    length < file.size ? { start: 0, end: length - 1 } : undefined,
  );
  // A fresh, unshared buffer: it is transferred to a compute thread.
  const bytes = new Uint8Array(length);
  let offset = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const part = chunk.subarray(0, length - offset);
    bytes.set(part, offset);
    offset += part.length;
  }
  return { bytes: bytes.subarray(0, offset) };
}
