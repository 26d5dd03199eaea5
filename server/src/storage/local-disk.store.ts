import { createHash, randomUUID } from 'node:crypto';
import {
  close as closeFdCallback,
  fdatasync as fdatasyncCallback,
  fsync as fsyncCallback,
  ftruncate as ftruncateCallback,
  open as openFdCallback,
  read as readFdCallback,
  rename as renameCallback,
  writev as writevCallback,
} from 'node:fs';
import { mkdir, readdir, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable, finished } from 'node:stream';
import { promisify } from 'node:util';
import { assertValidKey, assertValidRange, isValidKey } from './blob-key.js';
import {
  BlobNotFoundError,
  isRecycling,
  type ByteRange,
  type GrowableBlobStore,
  type ListableBlobStore,
  type StoredObject,
} from './blob-store.js';
import { fsWriteError } from './storage-errors.js';

export interface LocalDiskStoreOptions {
  /** Temp files untouched for this long are leftovers of a crash, removed before the first write. */
  staleTempMs?: number;
}

const TEMP_DIR = '.tmp';
const DEFAULT_STALE_TEMP_MS = 60 * 60 * 1000;
const READ_BUFFER_BYTES = 512 * 1024;
// Files go through plain descriptors and the callback API: a FileHandle and its promise requests
// cost about a third more of the main thread per call, which a zip of many files, or many small
// uploads, pay thousands of times.
const openFd = promisify(openFdCallback);
const readFd = promisify(readFdCallback);
const writevFd = promisify(writevCallback);
const fsyncFd = promisify(fsyncCallback);
const fdatasyncFd = promisify(fdatasyncCallback);
const ftruncateFd = promisify(ftruncateCallback);
const closeFd = promisify(closeFdCallback);
const renamePath = promisify(renameCallback);
/** For a descriptor whose bytes no longer matter (read from, or of a write given up): nothing is lost if closing it fails. */
const closeQuietly = (fd: number) => closeFdCallback(fd, () => {});
/**
 * The first read of an object is smaller: most files are small, and a buffer of a full read for
 * each (a zip of many) is memory the garbage collector must then chase. It still holds a whole
 * first chunk of the encrypted format.
 */
const FIRST_READ_BYTES = 128 * 1024;
const WRITE_BUFFER_BYTES = 1024 * 1024;
const MAX_WRITE_PIECES = 1024;
/** A piece written in place starts reaching the disk after this much, ahead of its final sync. */
const EARLY_FLUSH_BYTES = 4 * 1024 * 1024;

/**
 * Objects as files under `root`. Writes land in `root/.tmp` (same filesystem, so the final
 * rename is atomic) and are fsynced before and after the rename: a key either names every
 * byte or does not exist, even across a crash.
 */
export class LocalDiskStore implements GrowableBlobStore, ListableBlobStore {
  readonly root: string;
  private readonly tempDir: string;
  private ready: Promise<void> | undefined;
  /** Folders known to exist: a small upload would otherwise spend a `mkdir` call on its shard every time. */
  private readonly knownDirs = new Set<string>();

  constructor(
    root: string,
    private readonly options: LocalDiskStoreOptions = {},
  ) {
    this.root = path.resolve(root);
    this.tempDir = path.join(this.root, TEMP_DIR);
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const tempPath = path.join(this.tempDir, randomUUID());
    let fd: number | undefined;
    let finalPath: string | undefined;
    try {
      assertValidKey(key);
      await this.prepare();
      fd = await openFd(tempPath, 'wx', 0o600);
      const size = await writeAll(body, fd);
      await fsyncFd(fd);
      // Released even when close fails, so never closed twice: the number may be reused at once.
      const written = fd;
      fd = undefined;
      await closeFd(written);
      const target = this.pathOf(key);
      await this.renameInto(tempPath, target);
      finalPath = target;
      await syncDir(path.dirname(target));
      return { size };
    } catch (err) {
      body.destroy();
      if (fd !== undefined) closeQuietly(fd);
      await unlink(tempPath).catch(ignoreMissing);
      // Renamed but not durable: the caller is told it failed, so the key must not exist.
      if (finalPath) await unlink(finalPath).catch(ignoreMissing);
      throw fsWriteError(err);
    }
  }

  async writeAt(key: string, position: number, body: Readable): Promise<{ size: number }> {
    let fd: number | undefined;
    try {
      assertValidKey(key);
      if (!Number.isSafeInteger(position) || position < 0) throw new RangeError(`Bad position ${position}`);
      await this.prepare();
      const target = this.pathOf(key);
      await this.ensureParent(target);
      fd = await this.openForWriting(key, target, position);
      await ftruncateFd(fd, position);
      const size = await writeAll(body, fd, position, EARLY_FLUSH_BYTES);
      await fsyncFd(fd);
      if (position === 0) await syncDir(path.dirname(target));
      return { size };
    } catch (err) {
      body.destroy();
      // The caller keeps none of a failed piece (its offset does not move), so the space it took
      // goes back now: on a full disk that is what lets the retry fit.
      if (fd !== undefined) await ftruncateFd(fd, position).catch(() => undefined);
      throw fsWriteError(err);
    } finally {
      if (fd !== undefined) await closeFd(fd).catch(() => undefined);
    }
  }

  async promote(from: string, to: string): Promise<void> {
    assertValidKey(from);
    assertValidKey(to);
    const source = this.pathOf(from);
    const target = this.pathOf(to);
    await this.renameInto(source, target).catch((err: unknown) => {
      throw isMissing(err) ? new BlobNotFoundError(from) : fsWriteError(err);
    });
    await syncDir(path.dirname(target));
    if (path.dirname(target) !== path.dirname(source)) await syncDir(path.dirname(source));
  }

  /**
   * Renames `from` to `target`, creating the target's folder first if this store has not seen it
   * yet. A folder removed behind the store's back (by hand, by a restore) fails the rename once;
   * it is then made again and the rename retried, so only a missing `from` fails it.
   */
  private async renameInto(from: string, target: string): Promise<void> {
    await this.ensureParent(target);
    try {
      await renamePath(from, target);
    } catch (err) {
      if (!isMissing(err)) throw err;
      await this.remakeParent(target);
      await renamePath(from, target);
    }
  }

  /**
   * Opens the object to write at `position`. Past the start it must exist already: a missing one
   * means its earlier pieces are gone. At the start, a missing folder is made again.
   */
  private async openForWriting(key: string, target: string, position: number): Promise<number> {
    try {
      return await openFd(target, position === 0 ? 'w' : 'r+', 0o600);
    } catch (err) {
      if (!isMissing(err)) throw err;
      if (position > 0) throw new BlobNotFoundError(key);
      await this.remakeParent(target);
      return openFd(target, 'w', 0o600);
    }
  }

  /** For a folder this store knew but that was removed behind its back. */
  private async remakeParent(target: string): Promise<void> {
    this.knownDirs.delete(path.dirname(target));
    await this.ensureParent(target);
  }

  /** Creates (durably) the folder of `target` unless this store already made or found it. */
  private async ensureParent(target: string): Promise<void> {
    const dir = path.dirname(target);
    if (this.knownDirs.has(dir)) return;
    await ensureDir(dir);
    this.knownDirs.add(dir);
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertValidKey(key);
    if (range) assertValidRange(range);
    const fd = await this.openForReading(key);
    const pieces = Readable.from(readPieces(fd, range?.start ?? 0, range?.end ?? Infinity), { objectMode: false });
    // However the stream ends: read to the end, failed, or destroyed before its first read.
    pieces.once('close', () => closeQuietly(fd));
    return pieces;
  }

  async readWhole(key: string, expectedSize: number): Promise<Buffer> {
    assertValidKey(key);
    if (!Number.isSafeInteger(expectedSize) || expectedSize < 0) throw new RangeError(`Bad size ${expectedSize}`);
    const fd = await this.openForReading(key);
    try {
      const buffer = Buffer.allocUnsafeSlow(expectedSize + 1);
      let length = 0;
      // One read almost always; a short read that is not the end (rare on a local file) reads on.
      for (;;) {
        const { bytesRead } = await readFd(fd, buffer, length, buffer.length - length, length);
        length += bytesRead;
        if (bytesRead === 0 || length === buffer.length) return buffer.subarray(0, length);
      }
    } finally {
      closeQuietly(fd);
    }
  }

  private async openForReading(key: string): Promise<number> {
    try {
      return await openFd(this.pathOf(key), 'r');
    } catch (err) {
      throw isMissing(err) ? new BlobNotFoundError(key) : err;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertValidKey(key);
    try {
      const info = await stat(this.pathOf(key));
      return { size: info.size };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await unlink(this.pathOf(key)).catch(ignoreMissing);
  }

  async close(): Promise<void> {
    await this.ready?.catch(() => undefined);
  }

  /**
   * Walks the shard folders in name order, and each one's names in order, so `after` can skip
   * straight to the key's own shard. Only one folder's names are held at a time.
   */
  async *list(options: { after?: string } = {}): AsyncGenerator<StoredObject> {
    const after = options.after === undefined ? null : { shard: this.shardOf(options.after), name: fileNameOf(options.after) };
    const shards = (await readdirOrEmpty(this.root)).filter((name) => SHARD_PATTERN.test(name)).sort();
    for (const shard of shards) {
      if (after && shard < after.shard) continue;
      const names = (await readdirOrEmpty(path.join(this.root, shard))).sort();
      for (const name of names) {
        if (after && shard === after.shard && name <= after.name) continue;
        const key = name.replace('.', '/');
        // Anything else there (an editor's backup, a key in the wrong shard) is not reachable by key.
        if (!isValidKey(key) || this.shardOf(key) !== shard) continue;
        const info = await stat(path.join(this.root, shard, name)).catch(() => null);
        if (info?.isFile()) yield { key, size: info.size, modifiedAt: info.mtimeMs };
      }
    }
  }

  /**
   * Files are spread over 256 folders by a hash of the key, whatever the key looks like, so no
   * folder grows past a few thousand entries per million files. The namespace separator becomes
   * a dot, which no key contains, so the mapping stays one-to-one.
   */
  pathOf(key: string): string {
    return path.join(this.root, this.shardOf(key), fileNameOf(key));
  }

  private shardOf(key: string): string {
    return createHash('sha256').update(key).digest('hex').slice(0, 2);
  }

  private prepare(): Promise<void> {
    this.ready ??= this.init().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  private async init(): Promise<void> {
    await ensureDir(this.tempDir);
    await sweepTempFiles(this.tempDir, this.options.staleTempMs ?? DEFAULT_STALE_TEMP_MS);
  }
}

/**
 * Streams the body into the file. Pieces that arrive while a write runs are gathered into the next
 * one (a single writev), so a body in many small pieces costs few system calls; and each piece is
 * written as it is, where reading the body by async iteration would first join whatever is buffered.
 */
async function writeAll(body: Readable, fd: number, start = 0, flushEvery = 0): Promise<number> {
  let size = 0;
  const recycler = isRecycling(body) ? body : null;
  const flusher = flushEvery > 0 ? new EarlyFlusher(fd, flushEvery) : null;
  // The caller closes the descriptor once this returns, even on failure; a write still queued
  // then could land in whatever file reuses the number, so none may outlive this call.
  let writing: Promise<void> = Promise.resolve();
  const sink = new Writable({
    highWaterMark: WRITE_BUFFER_BYTES,
    // A single chunk comes here too: Writable hands it to `writev` when there is no `write`.
    writev(chunks, done) {
      const pieces = chunks.map(({ chunk }) => chunk as Buffer);
      const at = start + size;
      let bytes = 0;
      for (const piece of pieces) bytes += piece.length;
      size += bytes;
      writing = writePieces(fd, pieces, at);
      writing.then(() => {
        // Written, and this store keeps no reference: the producer may refill them.
        if (recycler) for (const piece of pieces) recycler.recycle(piece);
        flusher?.written(bytes);
        done();
      }, done);
    },
  });
  try {
    await pipeInto(body, sink);
  } finally {
    await writing.catch(() => undefined);
    await flusher?.settled();
  }
  return size;
}

/**
 * `body.pipe(sink)` until the sink has finished; fails when either stream fails or the body
 * closes before its end. `pipeline` would do the same but builds an AbortController per call and
 * aborts it on completion, which creates a DOMException, stack trace and all: a cost every small
 * upload paid.
 */
function pipeInto(body: Readable, sink: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (err?: Error | null) => {
      if (settled) return;
      settled = true;
      if (!err) return resolve();
      body.unpipe(sink);
      sink.destroy();
      reject(err);
    };
    finished(body, { writable: false }, (err) => {
      if (err) settle(err);
    });
    finished(sink, settle);
    body.pipe(sink);
  });
}

/**
 * Starts flushing written bytes to disk while more arrive, one flush at a time: the sync that
 * makes a piece durable then finds little left to write, so the client waits less between pieces.
 */
class EarlyFlusher {
  private pending = 0;
  private running: Promise<void> | null = null;

  constructor(
    private readonly fd: number,
    private readonly every: number,
  ) {}

  written(bytes: number): void {
    this.pending += bytes;
    if (this.pending < this.every || this.running) return;
    this.pending = 0;
    this.running = fdatasyncFd(this.fd).then(
      () => void (this.running = null),
      () => void (this.running = null),
    );
  }

  async settled(): Promise<void> {
    await this.running;
  }
}

/** Writes the pieces one after another from file position `at`. */
async function writePieces(fd: number, pieces: Buffer[], at: number): Promise<void> {
  // One writev takes at most IOV_MAX (1024 on Linux) buffers.
  for (let from = 0; from < pieces.length; from += MAX_WRITE_PIECES) {
    const batch = pieces.slice(from, from + MAX_WRITE_PIECES);
    let { bytesWritten } = await writevFd(fd, batch, at);
    // A short write is rare on a regular file; then the rest goes piece by piece.
    for (const piece of batch) {
      if (bytesWritten >= piece.length) {
        bytesWritten -= piece.length;
        at += piece.length;
        continue;
      }
      at += bytesWritten;
      for (let offset = bytesWritten; offset < piece.length;) {
        const { bytesWritten: n } = await writevFd(fd, [piece.subarray(offset)], at);
        offset += n;
        at += n;
      }
      bytesWritten = 0;
    }
  }
}

/** A new directory survives a crash only once the entry in its parent is flushed too. */
async function ensureDir(dir: string): Promise<void> {
  const created = await mkdir(dir, { recursive: true });
  if (created === undefined) return;
  for (let d = dir; d.length >= created.length && d !== path.dirname(d); d = path.dirname(d)) {
    await syncDir(path.dirname(d));
  }
}

async function syncDir(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  const fd = await openFd(dir, 'r');
  try {
    await fsyncFd(fd);
  } finally {
    await closeFd(fd);
  }
}

async function sweepTempFiles(dir: string, staleMs: number): Promise<void> {
  const cutoff = Date.now() - staleMs;
  for (const name of await readdir(dir)) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info && info.mtimeMs <= cutoff) await rm(file, { force: true, recursive: true });
  }
}

const SHARD_PATTERN = /^[0-9a-f]{2}$/;

function fileNameOf(key: string): string {
  return key.replace('/', '.');
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function ignoreMissing(err: unknown): void {
  if (!isMissing(err)) throw err;
}

/**
 * The bytes of an open file from `start` to `end` (inclusive). A range past the end of the file
 * yields fewer (or no) bytes, as S3 clips it too. Reads of 512 KiB cost far fewer syscalls than a
 * stream's 64 KiB and usually hold whole chunks of the encrypted format, which are then opened
 * without a copy. A read that comes back short has met the end of the file (stored objects never
 * grow), so no further read is spent learning that: with many small files (a zip) that is one
 * read in every two or three.
 */
async function* readPieces(fd: number, start: number, end: number): AsyncGenerator<Buffer> {
  for (let position = start; position <= end;) {
    const wanted = Math.min(position === start ? FIRST_READ_BYTES : READ_BUFFER_BYTES, end + 1 - position);
    const buffer = Buffer.allocUnsafeSlow(wanted);
    const { bytesRead } = await readFd(fd, buffer, 0, wanted, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    if (bytesRead === wanted) {
      yield buffer;
      continue;
    }
    // A short tail is copied out, so the rest of its buffer is not held while it is used.
    yield bytesRead < wanted / 4 ? Buffer.from(buffer.subarray(0, bytesRead)) : buffer.subarray(0, bytesRead);
    return;
  }
}
