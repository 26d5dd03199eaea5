import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { zipLength, zipStream, type ZipEntry } from '../../src/services/downloads/zip-writer.js';

const MiB = 1024 * 1024;
const ZEROS = Buffer.alloc(MiB);

/** `count` MiB of zeros, always the same buffer, so the capture below can skip storing it. */
function zeros(count: number, onFirstRead?: () => void): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent === 0) onFirstRead?.();
      this.push(sent++ < count ? ZEROS : null);
    },
  });
}

/** An archive kept in memory except its runs of zeros, readable at random offsets. */
class SparseArchive extends yauzl.RandomAccessReader {
  readonly pieces: { at: number; bytes: Buffer }[] = [];
  size = 0;

  add(chunk: Buffer): void {
    if (chunk !== ZEROS) this.pieces.push({ at: this.size, bytes: Buffer.from(chunk) });
    this.size += chunk.length;
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const out = Buffer.alloc(end - start);
    for (const { at, bytes } of this.pieces) {
      if (at >= end || at + bytes.length <= start) continue;
      bytes.copy(out, Math.max(0, at - start), Math.max(0, start - at), Math.min(bytes.length, end - at));
    }
    return Readable.from([out]);
  }
}

describe('zip writer', () => {
  it('switches to ZIP64 for a file beyond 4 GiB and for the offsets after it', { timeout: 120_000 }, async () => {
    const bigSize = 4.5 * 1024 * MiB;
    const list: ZipEntry[] = [
      { kind: 'file', path: 'big.bin', size: bigSize, mtime: new Date(), open: async () => zeros(bigSize / MiB) },
      { kind: 'file', path: 'after.txt', size: 5, mtime: new Date(), open: async () => Readable.from([Buffer.from('hello')]) },
      { kind: 'directory', path: 'empty/', mtime: new Date() },
    ];
    async function* entries(): AsyncGenerator<ZipEntry> {
      yield* list;
    }
    const archive = new SparseArchive();
    // Straight from the generator: a stream could merge chunks, and the zeros must stay recognisable.
    for await (const chunk of zipStream(entries())) archive.add(chunk);
    expect(zipLength(list)).toBe(archive.size);

    const zip = await yauzl.fromRandomAccessReaderPromise(archive, archive.size, { validateEntrySizes: true });
    const found = new Map<string, yauzl.Entry>();
    for await (const entry of zip.eachEntry()) {
      found.set(entry.fileName, entry);
      if (entry.fileName === 'after.txt') {
        const parts: Buffer[] = [];
        for await (const chunk of await zip.openReadStreamPromise(entry)) parts.push(chunk as Buffer);
        expect(Buffer.concat(parts).toString()).toBe('hello');
      }
    }
    expect([...found.keys()]).toEqual(['big.bin', 'after.txt', 'empty/']);
    expect(found.get('big.bin')!.uncompressedSize).toBe(bigSize);
    expect(found.get('after.txt')!.relativeOffsetOfLocalHeader).toBeGreaterThan(2 ** 32);
  });

  it('keeps names, times and an empty archive valid', async () => {
    const mtime = new Date('2024-05-06T07:08:10Z');
    async function* entries(): AsyncGenerator<ZipEntry> {
      yield { kind: 'file', path: 'Ünïcødé 😀/名前.txt', size: 0, mtime, open: async () => Readable.from([]) };
    }
    const collect = async (source: AsyncIterable<ZipEntry>) => {
      const parts: Buffer[] = [];
      for await (const chunk of Readable.from(zipStream(source), { objectMode: false })) parts.push(chunk as Buffer);
      return Buffer.concat(parts);
    };
    const zip = await yauzl.fromBufferPromise(await collect(entries()));
    const listed: yauzl.Entry[] = [];
    for await (const entry of zip.eachEntry()) listed.push(entry);
    const entry = listed[0];
    expect(entry!.fileName).toBe('Ünïcødé 😀/名前.txt');
    expect(entry!.getLastModDate({ forceDosFormat: false }).getTime()).toBe(mtime.getTime());

    const empty = await yauzl.fromBufferPromise(await collect((async function* () {})()));
    expect(empty.entryCount).toBe(0);
  });

  it('fails instead of writing a wrong archive when a file is shorter than its recorded size', async () => {
    async function* entries(): AsyncGenerator<ZipEntry> {
      yield { kind: 'file', path: 'short.bin', size: 10, mtime: new Date(), open: async () => Readable.from([Buffer.from('abc')]) };
    }
    const stream = Readable.from(zipStream(entries()), { objectMode: false });
    await expect(stream.toArray()).rejects.toThrow(/held 3 bytes, not 10/);
  });

  it('opens the next file and reads its first piece while one streams, and closes what it opened when the archive stops early', async () => {
    const opened: string[] = [];
    const read: string[] = [];
    const streams = new Map<string, Readable>();
    async function* entries(): AsyncGenerator<ZipEntry> {
      for (const name of ['a', 'b', 'c', 'd'])
        yield {
          kind: 'file',
          path: name,
          size: 2 * MiB,
          mtime: new Date(),
          open: async () => {
            opened.push(name);
            const stream = zeros(2, () => read.push(name));
            streams.set(name, stream);
            return stream;
          },
        };
    }
    const zip = zipStream(entries());
    let bytes = 0;
    for await (const chunk of zip) {
      bytes += chunk.length;
      // Within the first file the second is already open, and no other.
      if (bytes > MiB) break;
    }
    expect(opened).toEqual(['a', 'b']);
    expect(read).toEqual(['a', 'b']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(streams.get('a')!.destroyed).toBe(true);
    expect(streams.get('b')!.destroyed).toBe(true);
  });

  it('gives every file its own bytes in order when they are opened ahead', async () => {
    const names = Array.from({ length: 50 }, (_, i) => `f${i}.txt`);
    async function* entries(): AsyncGenerator<ZipEntry> {
      for (const name of names) {
        const body = Buffer.from(`contents of ${name}`);
        yield { kind: 'file', path: name, size: body.length, mtime: new Date(), open: async () => Readable.from([body]) };
      }
    }
    const archive = Buffer.concat(await Readable.from(zipStream(entries()), { objectMode: false }).toArray());
    const zipfile = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromBuffer(archive, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
    );
    const read: Record<string, string> = {};
    await new Promise<void>((resolve, reject) => {
      zipfile.on('entry', (entry: yauzl.Entry) =>
        zipfile.openReadStream(entry, (err, stream) => {
          if (err) return reject(err);
          stream
            .toArray()
            .then((parts: Buffer[]) => ((read[entry.fileName] = Buffer.concat(parts).toString()), zipfile.readEntry()), reject);
        }),
      );
      zipfile.on('end', () => resolve());
      zipfile.readEntry();
    });
    expect(Object.keys(read)).toEqual(names);
    for (const name of names) expect(read[name]).toBe(`contents of ${name}`);
  });

  it('knows the length of its archive before writing it, with ZIP64 end records beyond 65,535 entries', async () => {
    const mtime = new Date('2024-05-06T07:08:10Z');
    const hello = (path: string): ZipEntry => ({
      kind: 'file',
      path,
      size: 5,
      mtime,
      open: async () => Readable.from([Buffer.from('hello')]),
    });
    const empty = (path: string): ZipEntry => ({ kind: 'file', path, size: 0, mtime, open: async () => Readable.from([]) });
    const archives: ZipEntry[][] = [
      [],
      [hello('Ünïcødé 😀/名前.txt'), { kind: 'directory', path: 'empty/', mtime }, empty('zero.bin')],
      Array.from({ length: 70_000 }, (_, i) => empty(`e-${i}.txt`)),
    ];
    for (const list of archives) {
      let bytes = 0;
      for await (const chunk of zipStream(Readable.from(list))) bytes += chunk.length;
      expect(zipLength(list), `${list.length} entries`).toBe(bytes);
    }
  });
});
