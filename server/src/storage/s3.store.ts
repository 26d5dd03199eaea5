import type * as ClientS3 from '@aws-sdk/client-s3';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type { StorageConfig } from '../config.js';
import { assertValidKey, assertValidRange, isValidKey } from './blob-key.js';
import { BlobNotFoundError, type ByteRange, type ListableBlobStore, type StoredObject } from './blob-store.js';
import { s3BackoffDelay, s3Failure, type S3RetryPolicy } from './s3-retry.js';

export type S3StorageConfig = Extract<StorageConfig, { driver: 's3' }>;

export interface S3StoreOptions {
  /** Multipart part size (S3's minimum is 5 MiB); also caps objects at 10,000 parts. */
  partSize?: number;
  /** Parts uploaded at once. Memory held by one put is about partSize × (queueSize + 1). */
  queueSize?: number;
  /** Destroy the client on close(): true when the store created it. */
  ownsClient?: boolean;
  /** How often and how patiently a failed request (each part on its own) is sent again. */
  retry?: S3RetryPolicy;
}

const load = createRequire(import.meta.url);
/** The AWS SDK (about 10 MB resident) loads only on servers that store in S3. */
const sdk = () => load('@aws-sdk/client-s3') as typeof ClientS3;
const multipart = () => load('@aws-sdk/lib-storage') as typeof LibStorage;
/**
 * The SDK's own retry strategies, from the copy of @smithy/core the SDK itself depends on (it does
 * not re-export them, and the server declares no dependency of its own on that package).
 */
const retryStrategies = () =>
  createRequire(load.resolve('@aws-sdk/client-s3'))('@smithy/core/retry') as {
    ConfiguredRetryStrategy: new (maxAttempts: number, delay: (attempt: number) => number) => NonNullable<S3ClientConfig['retryStrategy']>;
  };

const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
const DEFAULT_QUEUE_SIZE = 4;
/** One try and four retries: with the default delays a request gives up after about 3 s of failures. */
const DEFAULT_MAX_ATTEMPTS = 5;

/** Objects in one bucket of any S3-compatible service (AWS, MinIO, Ceph, Garage, R2). */
export class S3BlobStore implements ListableBlobStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly options: S3StoreOptions = {},
  ) {}

  static fromConfig(config: S3StorageConfig, options: Omit<S3StoreOptions, 'ownsClient'> = {}): S3BlobStore {
    const client = new (sdk().S3Client)({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      // Absent keys fall back to the SDK's chain (environment, instance or task role).
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      // Every stored byte is already authenticated by AES-GCM above this layer, and several
      // S3-compatible services reject the SDK's newer default checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Throttling (503 SlowDown), 5xx answers and broken connections are sent again with a
      // growing, jittered delay. Every body the SDK sends is a buffer (lib-storage cuts the stream
      // into whole parts before sending any), so a retry resends exactly the same bytes.
      ...retryConfig(options.retry),
    });
    return new S3BlobStore(client, config.bucket, { ...options, ownsClient: true });
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    try {
      assertValidKey(key);
    } catch (err) {
      body.destroy();
      throw err;
    }
    const source = trackSource(body);
    // Upload sends one PutObject for small bodies, otherwise a multipart upload with a bounded
    // queue of parts, each read whole into a buffer before it is sent (and retried).
    const upload = new (multipart().Upload)({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: source.stream },
      partSize: this.options.partSize ?? DEFAULT_PART_SIZE,
      queueSize: this.options.queueSize ?? DEFAULT_QUEUE_SIZE,
      // The parts are dropped below instead: Upload's own abort, when it fails too (the store
      // still failing), throws its error in place of the one that stopped the upload.
      leavePartsOnError: true,
    });
    try {
      await upload.done();
    } catch (err) {
      // Read before the body goes: destroying it fails the pass-through with a premature close.
      const sourceError = source.state.error;
      body.destroy();
      await this.abandonParts(key, upload.uploadId);
      throw sourceError ?? s3Failure(err);
    }
    return { size: source.state.size };
  }

  /** Drops the stored parts of a failed multipart upload; if that fails too, the bucket's lifecycle rule must. */
  private async abandonParts(key: string, uploadId: string | undefined): Promise<void> {
    if (uploadId === undefined) return;
    await this.client
      .send(new (sdk().AbortMultipartUploadCommand)({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
      .catch(() => undefined);
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertValidKey(key);
    if (range) assertValidRange(range);
    try {
      const output = await this.client.send(
        new (sdk().GetObjectCommand)({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      const body = (output.Body as Readable | undefined) ?? Readable.from([]);
      return range ? exactRange(body, range, output.ContentRange) : body;
    } catch (err) {
      if (err instanceof sdk().S3ServiceException && err.name === 'NoSuchKey') throw new BlobNotFoundError(key);
      // S3 clips a range that runs past the end, and refuses one that starts past it; yield
      // no bytes instead, as reading past the end of a file does.
      if (range && statusOf(err) === 416) return Readable.from([]);
      throw s3Failure(err);
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertValidKey(key);
    try {
      const output = await this.client.send(new (sdk().HeadObjectCommand)({ Bucket: this.bucket, Key: key }));
      return { size: output.ContentLength ?? 0 };
    } catch (err) {
      // A HEAD answer has no body, so the status code is all there is to go on.
      if (statusOf(err) === 404) return null;
      throw s3Failure(err);
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new (sdk().DeleteObjectCommand)({ Bucket: this.bucket, Key: key }));
  }

  /** ListObjectsV2 pages (1,000 keys each) in the bucket's key order; `after` is its StartAfter. */
  async *list(options: { after?: string } = {}): AsyncGenerator<StoredObject> {
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new (sdk().ListObjectsV2Command)({
          Bucket: this.bucket,
          ContinuationToken: continuationToken,
          StartAfter: continuationToken ? undefined : options.after,
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined || !isValidKey(object.Key)) continue;
        // An object of unknown age counts as new, so nothing ever takes it for an old stray.
        yield { key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? Date.now() };
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  async close(): Promise<void> {
    if (this.options.ownsClient) this.client.destroy();
  }
}

/**
 * Some S3-compatible servers ignore a range or serve more than asked (e.g. `bytes=0-0` as the
 * whole object); callers rely on getting exactly the bytes they asked for, so trim the excess.
 */
function exactRange(body: Readable, range: ByteRange, contentRange: string | undefined): Readable {
  const served = /^bytes (\d+)-(\d+)\//.exec(contentRange ?? '');
  const servedStart = served ? Number(served[1]) : 0;
  const servedEnd = served ? Number(served[2]) : Infinity;
  if (servedStart === range.start && servedEnd <= range.end) return body;
  if (servedStart > range.start) {
    body.destroy();
    throw new Error(`Asked for bytes ${range.start}-${range.end}, the server sent ${contentRange ?? 'no range'}`);
  }
  return Readable.from(sliceBytes(body, range.start - servedStart, range.end - range.start + 1), { objectMode: false });
}

async function* sliceBytes(source: AsyncIterable<Buffer>, skip: number, take: number): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    const part = chunk.subarray(Math.min(skip, chunk.length), Math.min(skip, chunk.length) + take);
    skip = Math.max(0, skip - chunk.length);
    take -= part.length;
    if (part.length > 0) yield part;
    if (take === 0) return;
  }
}

function retryConfig(policy: S3RetryPolicy = {}): Pick<S3ClientConfig, 'maxAttempts' | 'retryStrategy'> {
  const maxAttempts = policy.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  return {
    maxAttempts,
    retryStrategy: new (retryStrategies().ConfiguredRetryStrategy)(maxAttempts, (attempt) => s3BackoffDelay(attempt, policy)),
  };
}

function statusOf(err: unknown): number | undefined {
  return err instanceof sdk().S3ServiceException ? err.$metadata.httpStatusCode : undefined;
}

/** Counts the bytes passed on, and remembers the source's own error. */
function trackSource(body: Readable): { stream: Readable; state: { size: number; error: unknown } } {
  const state = { size: 0, error: undefined as unknown };
  async function* pass(): AsyncGenerator<Buffer> {
    const pieces = (body as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
    try {
      for (;;) {
        let next: IteratorResult<Buffer | string>;
        try {
          next = await pieces.next();
        } catch (err) {
          // Only a failure of the body itself is recorded. When the upload gives up, it aborts
          // this stream, and that AbortError arrives at the yield below: the store's own error
          // (throttling, say) is the one to report, not the abort it caused.
          state.error = err;
          throw err;
        }
        if (next.done) return;
        const buffer = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
        state.size += buffer.length;
        yield buffer;
      }
    } finally {
      await pieces.return?.();
    }
  }
  return { stream: Readable.from(pass(), { objectMode: false }), state };
}
