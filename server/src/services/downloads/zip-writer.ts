import { crc32 } from '../../storage/crc32.js';

export type ZipEntry =
  | {
      kind: 'file';
      path: string;
      size: number;
      mtime: Date;
      /** The contents' CRC-32 when known beforehand; otherwise it is computed as they stream. */
      crc?: number;
      open: () => Promise<AsyncIterable<Buffer>>;
    }
  | { kind: 'directory'; path: string; mtime: Date };

/** What the central directory needs of each entry; the contents are long gone by then. */
interface Written {
  name: Buffer;
  mtime: Date;
  isDirectory: boolean;
  offset: number;
  size: number;
  crc: number;
}

const MAX32 = 0xffffffff;
const UTF8_NAMES = 1 << 11;
const SIZES_FOLLOW = 1 << 3;
const MADE_BY_UNIX = (3 << 8) | 45;
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;
const DIRECTORY_ATTRIBUTES = ((0o40755 << 16) | 0x10) >>> 0;

function isZip64(entry: Pick<Written, 'size' | 'offset'>): boolean {
  return entry.size >= MAX32 || entry.offset >= MAX32;
}

/** MS-DOS date and time (local, 2-second steps, 1980 at the earliest), as every unzip tool reads them. */
function dosDateTime(date: Date): { time: number; date: number } {
  const d = date.getFullYear() < 1980 ? new Date(1980, 0, 1) : date;
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

function localHeader(entry: Written): Buffer {
  const header = Buffer.alloc(30);
  const dos = dosDateTime(entry.mtime);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(isZip64(entry) ? 45 : 20, 4);
  // Files stream before their CRC is known: it follows them in a data descriptor.
  header.writeUInt16LE(UTF8_NAMES | (entry.isDirectory ? 0 : SIZES_FOLLOW), 6);
  header.writeUInt16LE(0, 8); // stored
  header.writeUInt16LE(dos.time, 10);
  header.writeUInt16LE(dos.date, 12);
  header.writeUInt16LE(entry.name.length, 26);
  return Buffer.concat([header, entry.name]);
}

function dataDescriptor(entry: Written): Buffer {
  const wide = isZip64(entry);
  const descriptor = Buffer.alloc(wide ? 24 : 16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(entry.crc, 4);
  if (wide) {
    descriptor.writeBigUInt64LE(BigInt(entry.size), 8);
    descriptor.writeBigUInt64LE(BigInt(entry.size), 16);
  } else {
    descriptor.writeUInt32LE(entry.size, 8);
    descriptor.writeUInt32LE(entry.size, 12);
  }
  return descriptor;
}

function centralRecord(entry: Written): Buffer {
  const wide = isZip64(entry);
  const record = Buffer.alloc(46);
  const dos = dosDateTime(entry.mtime);
  // Info-ZIP "UT": the modification time in UTC, to the second.
  const unixTime = Buffer.alloc(9);
  unixTime.writeUInt16LE(0x5455, 0);
  unixTime.writeUInt16LE(5, 2);
  unixTime.writeUInt8(1, 4);
  unixTime.writeInt32LE(Math.max(-0x80000000, Math.min(0x7fffffff, Math.floor(entry.mtime.getTime() / 1000))), 5);
  const zip64 = Buffer.alloc(wide ? 28 : 0);
  if (wide) {
    zip64.writeUInt16LE(0x0001, 0);
    zip64.writeUInt16LE(24, 2);
    zip64.writeBigUInt64LE(BigInt(entry.size), 4);
    zip64.writeBigUInt64LE(BigInt(entry.size), 12);
    zip64.writeBigUInt64LE(BigInt(entry.offset), 20);
  }
  record.writeUInt32LE(0x02014b50, 0);
  record.writeUInt16LE(MADE_BY_UNIX, 4);
  record.writeUInt16LE(wide ? 45 : 20, 6);
  record.writeUInt16LE(UTF8_NAMES | (entry.isDirectory ? 0 : SIZES_FOLLOW), 8);
  record.writeUInt16LE(dos.time, 12);
  record.writeUInt16LE(dos.date, 14);
  record.writeUInt32LE(entry.crc, 16);
  record.writeUInt32LE(wide ? MAX32 : entry.size, 20);
  record.writeUInt32LE(wide ? MAX32 : entry.size, 24);
  record.writeUInt16LE(entry.name.length, 28);
  record.writeUInt16LE(unixTime.length + zip64.length, 30);
  record.writeUInt32LE(entry.isDirectory ? DIRECTORY_ATTRIBUTES : FILE_ATTRIBUTES, 38);
  record.writeUInt32LE(wide ? MAX32 : entry.offset, 42);
  return Buffer.concat([record, entry.name, unixTime, zip64]);
}

function endRecords(count: number, directoryOffset: number, directorySize: number): Buffer {
  const wide = count >= 0xffff || directoryOffset >= MAX32 || directorySize >= MAX32;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(wide ? 0xffff : count, 8);
  end.writeUInt16LE(wide ? 0xffff : count, 10);
  end.writeUInt32LE(wide ? MAX32 : directorySize, 12);
  end.writeUInt32LE(wide ? MAX32 : directoryOffset, 16);
  if (!wide) return end;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(MADE_BY_UNIX, 12);
  record.writeUInt16LE(45, 14);
  record.writeBigUInt64LE(BigInt(count), 24);
  record.writeBigUInt64LE(BigInt(count), 32);
  record.writeBigUInt64LE(BigInt(directorySize), 40);
  record.writeBigUInt64LE(BigInt(directoryOffset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(directoryOffset + directorySize), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([record, locator, end]);
}

/** Small pieces (headers, descriptors, directory records) go out together, not one by one. */
class Batch {
  private parts: Buffer[] = [];
  bytes = 0;

  add(part: Buffer): void {
    this.parts.push(part);
    this.bytes += part.length;
  }

  take(): Buffer {
    const all = Buffer.concat(this.parts);
    this.parts = [];
    this.bytes = 0;
    return all;
  }
}

const BATCH_BYTES = 64 * 1024;

/** A file's contents, its first piece already on its way. */
interface Opened {
  pieces: AsyncIterator<Buffer>;
  first: Promise<IteratorResult<Buffer>>;
}

async function openEarly(open: () => Promise<AsyncIterable<Buffer>>): Promise<Opened> {
  const pieces = (await open())[Symbol.asyncIterator]();
  const first = pieces.next();
  first.catch(() => {}); // awaited when its turn comes; until then a failure is not unhandled
  return { pieces, first };
}

/**
 * Each entry with its contents opening and their first piece being read, the next file's already
 * under way while this one streams: with many small files, opening one (a lookup, a key to unwrap,
 * a file to open and read) would otherwise stall the archive between every two. At most one file
 * is open ahead.
 */
async function* openedAhead(entries: AsyncIterable<ZipEntry>): AsyncGenerator<{ entry: ZipEntry; contents?: Promise<Opened> }> {
  const open = (entry: ZipEntry) => {
    if (entry.kind !== 'file' || entry.size === 0) return { entry };
    const contents = openEarly(entry.open);
    contents.catch(() => {});
    return { entry, contents };
  };
  const source = entries[Symbol.asyncIterator]();
  let ahead: { entry: ZipEntry; contents?: Promise<Opened> } | undefined;
  let current: typeof ahead;
  try {
    let next = await source.next();
    if (!next.done) ahead = open(next.value);
    while (ahead) {
      current = ahead;
      ahead = undefined;
      next = await source.next();
      if (!next.done) ahead = open(next.value);
      yield current;
    }
  } finally {
    // Stopped early (the client went away, a file failed): close what was opened and not read.
    for (const left of [current, ahead])
      if (left?.contents)
        void left.contents.then(
          ({ pieces }) => pieces.return?.(),
          () => {},
        );
    await source.return?.();
  }
}

/** The record of an entry written at `offset`, its CRC still to come. */
function recordOf(entry: ZipEntry, offset: number): Written {
  const isFile = entry.kind === 'file';
  return { name: Buffer.from(entry.path), mtime: entry.mtime, isDirectory: !isFile, offset, size: isFile ? entry.size : 0, crc: 0 };
}

/**
 * The exact length in bytes of the archive zipStream makes of `entries`, from their paths and
 * sizes alone (entries are stored, so nothing depends on the contents): the records are the
 * writer's own, built and measured.
 */
export function zipLength(entries: Iterable<ZipEntry>): number {
  let offset = 0;
  let directorySize = 0;
  let count = 0;
  for (const entry of entries) {
    const written = recordOf(entry, offset);
    offset += localHeader(written).length + written.size + (written.isDirectory ? 0 : dataDescriptor(written).length);
    directorySize += centralRecord(written).length;
    count++;
  }
  return offset + directorySize + endRecords(count, offset, directorySize).length;
}

/**
 * A zip archive (stored entries, UTF-8 names, ZIP64 where sizes, offsets or the entry count need
 * it) produced as it is read: entries are pulled one at a time and each file is opened only when
 * the archive reaches it, so memory holds the central directory, never contents. Wrap it in
 * `Readable.from(…, { objectMode: false })` and backpressure pauses everything, reads included.
 */
export async function* zipStream(entries: AsyncIterable<ZipEntry>): AsyncGenerator<Buffer> {
  const written: Written[] = [];
  const batch = new Batch();
  let offset = 0;
  for await (const { entry, contents } of openedAhead(entries)) {
    const isFile = entry.kind === 'file';
    const current = recordOf(entry, offset);
    const header = localHeader(current);
    batch.add(header);
    offset += header.length;
    if (isFile) {
      if (entry.size > 0) {
        yield batch.take();
        let size = 0;
        let crc = 0;
        const { pieces, first } = await contents!;
        for (let piece = await first; !piece.done; piece = await pieces.next()) {
          size += piece.value.length;
          if (entry.crc === undefined) crc = crc32(piece.value, crc);
          yield piece.value;
        }
        if (size !== entry.size) throw new Error(`${entry.path} held ${size} bytes, not ${entry.size}`);
        current.crc = entry.crc ?? crc;
      }
      const descriptor = dataDescriptor(current);
      batch.add(descriptor);
      offset += current.size + descriptor.length;
    }
    written.push(current);
    if (batch.bytes >= BATCH_BYTES) yield batch.take();
  }
  if (batch.bytes > 0) yield batch.take();
  let directorySize = 0;
  for (const entry of written) {
    const record = centralRecord(entry);
    batch.add(record);
    directorySize += record.length;
    if (batch.bytes >= BATCH_BYTES) yield batch.take();
  }
  batch.add(endRecords(written.length, offset, directorySize));
  yield batch.take();
}
