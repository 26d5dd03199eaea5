import type { Readable } from 'node:stream';
import type { ByteRange } from '../storage/blob-store.js';
import { MediaUnprocessableError } from './errors.js';

export interface AudioTags {
  title: string | null;
  artist: string | null;
  album: string | null;
  durationSeconds: number | null;
  cover: { data: Buffer; contentType: string } | null;
}

export interface AudioTagOptions {
  /** Most bytes read from the file, however its tags point around: covers are rarely over a few MB. */
  maxBytes?: number;
  timeoutMs?: number;
}

const BLOCK = 64 * 1024;
const MAX_BYTES = 24 * 1024 * 1024;
const TIMEOUT_MS = 20_000;
const MAX_TEXT = 500;

/** Audio types whose tags are read; what browsers also play is a question for the player. */
export function isAudio(contentType: string): boolean {
  return contentType.startsWith('audio/');
}

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/**
 * Random access to a stored file in 64 KiB blocks, the last few kept: tag parsers hop between a
 * header, an index at the end and a cover image, asking for a few bytes at a time. Every block
 * counts against a budget, so a file whose tags point everywhere is given up on, not read whole.
 */
class BlockReader {
  private readonly blocks = new Map<number, Promise<Buffer>>();
  private spent = 0;
  stopped = false;

  constructor(
    readonly size: number,
    private readonly open: (range: ByteRange) => Promise<Readable>,
    private readonly budget: number,
  ) {}

  private block(index: number): Promise<Buffer> {
    const cached = this.blocks.get(index);
    if (cached) return cached;
    if (this.stopped) throw new MediaUnprocessableError('Reading the tags took too long');
    const start = index * BLOCK;
    const end = Math.min(this.size, start + BLOCK) - 1;
    this.spent += end - start + 1;
    if (this.spent > this.budget) throw new MediaUnprocessableError('The tags need more of the file than is read for them');
    const read = this.open({ start, end }).then(collect);
    this.blocks.set(index, read);
    if (this.blocks.size > 64) this.blocks.delete(this.blocks.keys().next().value as number);
    return read;
  }

  async bytes(start: number, end: number): Promise<ArrayBuffer> {
    const from = Math.max(0, Math.min(start, this.size));
    const to = Math.max(from, Math.min(end, this.size));
    const out = new Uint8Array(to - from);
    for (let index = Math.floor(from / BLOCK); index * BLOCK < to; index++) {
      const block = await this.block(index);
      const blockStart = index * BLOCK;
      const part = block.subarray(Math.max(0, from - blockStart), Math.min(block.length, to - blockStart));
      out.set(part, Math.max(0, blockStart - from));
    }
    return out.buffer;
  }
}

/** Just what the parser asks of a Blob: its size, its type and slices of it. */
function blobOver(reader: BlockReader, contentType: string, start = 0, end = reader.size): Blob {
  const view = {
    size: end - start,
    type: contentType,
    slice: (from = 0, to = end - start) => blobOver(reader, contentType, start + from, start + Math.min(to, end - start)),
    arrayBuffer: () => reader.bytes(start, end),
  };
  return view as unknown as Blob;
}

function text(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, MAX_TEXT) : null;
}

/**
 * Title, artist, album, duration and cover art of an audio file, read through `open` (a stored
 * file's decrypted ranges) with a byte budget and a deadline. A file that is not audio, or whose
 * tags cannot be read, throws MediaUnprocessableError.
 */
export async function readAudioTags(
  size: number,
  contentType: string,
  open: (range: ByteRange) => Promise<Readable>,
  options: AudioTagOptions = {},
): Promise<AudioTags> {
  if (size === 0) throw new MediaUnprocessableError('The file is empty');
  const { parseBlob, selectCover } = await import('music-metadata');
  const reader = new BlockReader(size, open, options.maxBytes ?? MAX_BYTES);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reader.stopped = true;
      reject(new MediaUnprocessableError('Reading the tags took too long'));
    }, options.timeoutMs ?? TIMEOUT_MS);
  });
  try {
    const parsed = await Promise.race([parseBlob(blobOver(reader, contentType), { duration: false, skipCovers: false }), deadline]);
    const { common, format } = parsed;
    const picture = selectCover(common.picture);
    const duration = format.duration;
    return {
      title: text(common.title),
      artist: text(common.artist ?? common.albumartist),
      album: text(common.album),
      durationSeconds:
        typeof duration === 'number' && Number.isFinite(duration) && duration >= 0 ? Math.round(duration * 1000) / 1000 : null,
      cover: picture && picture.data.length > 0 ? { data: Buffer.from(picture.data), contentType: picture.format } : null,
    };
  } catch (err) {
    if (err instanceof MediaUnprocessableError) throw err;
    throw new MediaUnprocessableError(`Cannot read the audio tags: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}
