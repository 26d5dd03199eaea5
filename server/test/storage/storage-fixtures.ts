import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setImmediate as nextTick } from 'node:timers/promises';
import S3rver from 's3rver';
import { assert } from 'vitest';
import type { BlobStore, ByteRange } from '../../src/storage/blob-store.js';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';
import { S3BlobStore, type S3StorageConfig } from '../../src/storage/s3.store.js';

export const MiB = 1024 * 1024;
/** The smallest part S3 accepts, so multipart uploads start early in tests. */
export const TEST_PART_SIZE = 5 * MiB;

export interface DriverFixture {
  store: BlobStore;
  /** Everything the backend holds: every file under the root (temp files too) or every listed object. */
  leftovers(): Promise<string[]>;
  teardown(): Promise<void>;
}

export interface S3Server {
  config: S3StorageConfig;
  /** A client of its own, for listing and for instrumented stores. */
  client(): S3Client;
  stop(): Promise<void>;
}

export const drivers: { name: 'fs' | 's3'; setup: () => Promise<DriverFixture> }[] = [
  { name: 'fs', setup: setupFs },
  { name: 's3', setup: setupS3 },
];

export async function setupFs(): Promise<DriverFixture> {
  const root = await mkdtemp(path.join(tmpdir(), 'nimbus-fs-'));
  const store = new LocalDiskStore(root);
  return {
    store,
    leftovers: () => listFiles(root),
    teardown: async () => {
      await store.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export async function setupS3(): Promise<DriverFixture> {
  const server = await startS3Server();
  const store = S3BlobStore.fromConfig(server.config, { partSize: TEST_PART_SIZE });
  const lister = server.client();
  return {
    store,
    leftovers: async () => {
      const listed = await lister.send(new ListObjectsV2Command({ Bucket: server.config.bucket }));
      return (listed.Contents ?? []).map((o) => o.Key ?? '').sort();
    },
    teardown: async () => {
      await store.close();
      lister.destroy();
      await server.stop();
    },
  };
}

/** A real S3-protocol server on loopback, on a random port, over a temp directory, with one bucket. */
export async function startS3Server(): Promise<S3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'nimbus-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = (await server.run()) as AddressInfo;
  const config: S3StorageConfig = {
    driver: 's3',
    bucket: 'nimbus-test',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  const client = (): S3Client =>
    new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  const admin = client();
  await admin.send(new CreateBucketCommand({ Bucket: config.bucket }));
  admin.destroy();
  return {
    config,
    client,
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

/** A byte stream of `data` in odd-sized pieces, so nothing lines up with chunk or part sizes by luck. */
export function streamOf(data: Buffer, pieceSize = 7919): Readable {
  return Readable.from(pieces(data, pieceSize), { objectMode: false });
}

/** Emits `data`, yielding to the event loop between pieces, then fails: an upload cut off mid-way. */
export function failingStream(data: Buffer, error: Error, pieceSize = 64 * 1024): Readable {
  async function* emit(): AsyncGenerator<Buffer> {
    for (const piece of pieces(data, pieceSize)) {
      yield piece;
      await nextTick();
    }
    throw error;
  }
  return Readable.from(emit(), { objectMode: false });
}

function* pieces(data: Buffer, pieceSize: number): Generator<Buffer> {
  for (let offset = 0; offset < data.length; offset += pieceSize) yield data.subarray(offset, offset + pieceSize);
}

/** Everything a stream yields before it ends or fails, and how it failed (a rejected open counts). */
export async function drain(opened: Promise<Readable>): Promise<{ data: Buffer; error?: unknown }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await opened) chunks.push(chunk as Buffer);
    return { data: Buffer.concat(chunks) };
  } catch (error) {
    return { data: Buffer.concat(chunks), error };
  }
}

export async function readAll(opened: Promise<Readable>): Promise<Buffer> {
  const { data, error } = await drain(opened);
  if (error) throw error;
  return data;
}

/** Byte-for-byte comparison that stays fast on megabytes and says where the bytes part. */
export function expectSameBytes(actual: Buffer, expected: Buffer): void {
  if (actual.equals(expected)) return;
  let offset = 0;
  while (offset < actual.length && offset < expected.length && actual[offset] === expected[offset]) offset++;
  assert.fail(`got ${actual.length} bytes, expected ${expected.length}; they differ from offset ${offset}`);
}

/** Passes every call through and records the ranges read, to prove a range read fetches only what it needs. */
export class RecordingStore implements BlobStore {
  readonly gets: { key: string; range?: ByteRange }[] = [];
  readonly readWhole?: (key: string, expectedSize: number) => Promise<Buffer>;

  /** `wholeReads`: offers the inner store's readWhole, when it has one. */
  constructor(
    private readonly inner: BlobStore,
    wholeReads = false,
  ) {
    if (wholeReads && inner.readWhole) this.readWhole = (key, expectedSize) => inner.readWhole!(key, expectedSize);
  }

  put(key: string, body: Readable): Promise<{ size: number }> {
    return this.inner.put(key, body);
  }
  get(key: string, range?: ByteRange): Promise<Readable> {
    this.gets.push({ key, range });
    return this.inner.get(key, range);
  }
  stat(key: string): Promise<{ size: number } | null> {
    return this.inner.stat(key);
  }
  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
