import { createHash, createHmac } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';

export const MANIFEST_FILE = 'manifest.json';
export const BLOB_INDEX_FILE = 'blobs.ndjson';
export const SECRETS_FILE = 'secrets.json';
export const BLOB_DIR = 'blobs';
export const MANIFEST_VERSION = 1;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const part = z.object({ file: z.string().regex(/^[A-Za-z0-9._-]+$/), size: z.number().int().nonnegative(), sha256 });

export const manifestSchema = z.object({
  format: z.literal('nimbus-backup'),
  version: z.literal(MANIFEST_VERSION),
  createdAt: z.string(),
  durationMs: z.number().nonnegative(),
  database: part.extend({ kind: z.enum(['sqlite', 'postgres']) }),
  storage: z.object({ driver: z.enum(['fs', 's3']) }),
  // `versions`: absent from backups made before files kept versions.
  counts: z.object({
    accounts: z.number().int(),
    folders: z.number().int(),
    files: z.number().int(),
    versions: z.number().int().optional(),
  }),
  blobs: z.object({
    index: part,
    count: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    /** Deleted from the live drive between the snapshot and their copy: restore drops their rows too. */
    gone: z.array(z.string()),
    /** Absent from the live store although still referenced: already lost before this backup. */
    missing: z.array(z.string()),
  }),
  encryption: z.object({
    /** HMAC of a fixed label under the master key: tells a wrong key apart without revealing the key. */
    keyFingerprint: sha256,
    masterKey: part.nullable(),
  }),
});

export type Manifest = z.infer<typeof manifestSchema>;

/** One line of the blob index: a stored object, copied as stored (still encrypted). */
export interface BlobEntry {
  key: string;
  size: number;
  sha256: string;
}

export function keyFingerprint(masterKey: Buffer): string {
  return createHmac('sha256', masterKey).update('nimbus backup key check v1').digest('hex');
}

export async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(createReadStream(file), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      hash.update(chunk);
      size += chunk.length;
    }
  });
  return { size, sha256: hash.digest('hex') };
}

/**
 * Where a blob lives inside a backup: spread over 256 folders like the disk store, with the
 * namespace separator as a dot (keys never contain one) so the mapping stays one-to-one.
 */
export function blobPath(dir: string, key: string): string {
  const shard = createHash('sha256').update(key).digest('hex').slice(0, 2);
  return path.join(dir, BLOB_DIR, shard, key.replace('/', '.'));
}

export async function readManifest(dir: string): Promise<Manifest> {
  let raw: string;
  try {
    raw = await readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new BackupError(`${dir} is not a Nimbus backup: it has no ${MANIFEST_FILE} (an interrupted backup has none)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new BackupError(`${path.join(dir, MANIFEST_FILE)} is not valid JSON: the backup is damaged`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new BackupError(
      `${path.join(dir, MANIFEST_FILE)} is not a manifest this version reads (${first?.path.join('.')}: ${first?.message})`,
    );
  }
  return parsed.data;
}

export async function readBlobIndex(dir: string): Promise<BlobEntry[]> {
  const text = await readFile(path.join(dir, BLOB_INDEX_FILE), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as BlobEntry);
}

/** A problem the operator can fix (bad arguments, a damaged backup, a wrong key): printed without a stack. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}
