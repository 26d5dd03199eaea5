import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobNotFoundError, type BlobStore } from '../storage/blob-store.js';
import { BackupError, blobPath, type BlobEntry } from './manifest.js';

const COPY_CONCURRENCY = 4;

/** Runs `work` on every item, at most `limit` at a time; the first failure stops the rest. */
export async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

function hashing(onDone: (size: number, sha256: string) => void): Transform {
  const hash = createHash('sha256');
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
    flush(callback) {
      onDone(size, hash.digest('hex'));
      callback();
    },
  });
}

export interface CopyOutcome {
  entries: BlobEntry[];
  /** Absent, and no longer referenced by the live database: deleted after the snapshot. */
  gone: string[];
  /** Absent, yet the live database still refers to them. */
  missing: string[];
}

/** Copies each blob as stored (still encrypted) into the backup, with its size and SHA-256. */
export async function copyBlobsOut(
  store: BlobStore,
  keys: readonly string[],
  dir: string,
  isStillReferenced: (key: string) => Promise<boolean>,
): Promise<CopyOutcome> {
  const outcome: CopyOutcome = { entries: [], gone: [], missing: [] };
  await forEachLimited(keys, COPY_CONCURRENCY, async (key) => {
    let source: Readable;
    try {
      source = await store.get(key);
    } catch (err) {
      if (!(err instanceof BlobNotFoundError)) throw err;
      ((await isStillReferenced(key)) ? outcome.missing : outcome.gone).push(key);
      return;
    }
    const target = blobPath(dir, key);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const draft = `${target}.${randomBytes(4).toString('hex')}.part`;
    let entry: BlobEntry | undefined;
    try {
      await pipeline(
        source,
        hashing((size, sha256) => (entry = { key, size, sha256 })),
        createWriteStream(draft, { mode: 0o600 }),
      );
      await rename(draft, target);
    } catch (err) {
      await rm(draft, { force: true });
      throw err;
    }
    outcome.entries.push(entry!);
  });
  outcome.entries.sort((a, b) => (a.key < b.key ? -1 : 1));
  return outcome;
}

/** Checks a blob of the backup against its index entry. */
export async function verifyBlob(dir: string, entry: BlobEntry): Promise<void> {
  let got: { size: number; sha256: string } | undefined;
  try {
    await pipeline(
      createReadStream(blobPath(dir, entry.key)),
      hashing((size, sha256) => (got = { size, sha256 })),
      async (source: AsyncIterable<Buffer>) => {
        for await (const _ of source);
      },
    );
  } catch {
    throw new BackupError(`The backup is incomplete: blob ${entry.key} is missing from ${path.join(dir, 'blobs')}`);
  }
  if (got?.sha256 !== entry.sha256 || got.size !== entry.size) {
    throw new BackupError(`The backup is damaged: blob ${entry.key} does not match its SHA-256 in the manifest`);
  }
}

/** Puts a blob of the backup back into a store, byte for byte. */
export async function copyBlobIn(store: BlobStore, dir: string, entry: BlobEntry): Promise<void> {
  const { size } = await store.put(entry.key, createReadStream(blobPath(dir, entry.key)));
  if (size !== entry.size) throw new BackupError(`Blob ${entry.key} changed while it was restored`);
}
