import type { FileDto } from '@nimbus/common';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createIntegrity, type Integrity } from '../../src/integrity/create-integrity.js';
import type { CheckOptions, CheckReport } from '../../src/integrity/integrity-check.js';
import type { Clock } from '../../src/services/clock.js';
import type { BlobStore } from '../../src/storage/blob-store.js';
import { createEncryptedStore } from '../../src/storage/create-stores.js';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';
import type { TestApp } from '../helpers/test-app.js';

export const HOUR = 3_600_000;

/** The check as the CLI builds it, over the app's database and store, with the test's clock. */
export function integrityOf(t: TestApp, clock: Clock, blobStore?: BlobStore): Integrity {
  return createIntegrity({
    db: t.app.database.db,
    blobStore: blobStore ?? new LocalDiskStore((t.config.storage as { root: string }).root),
    masterKey: t.config.secrets.encryptionKey,
    clock,
    log: { info() {}, warn() {}, error() {} },
    scrub: null,
  });
}

export function check(integrity: Integrity, options: Partial<CheckOptions> = {}): Promise<CheckReport> {
  return integrity.check.run({ repair: false, resume: false, rateBytesPerSecond: null, graceMs: 24 * HOUR, ...options });
}

export async function storageKeyOf(t: TestApp, file: FileDto): Promise<string> {
  const row = await t.app.database.db.selectFrom('file').select('storageKey').where('id', '=', file._id).executeTakeFirstOrThrow();
  return row.storageKey;
}

/** Flips one bit in the middle of a stored blob on disk, as a failing disk or a tamperer would. */
export async function flipByte(t: TestApp, key: string): Promise<void> {
  const store = new LocalDiskStore((t.config.storage as { root: string }).root);
  const handle = await open(store.pathOf(key), 'r+');
  try {
    const { size } = await handle.stat();
    const at = Math.floor(size / 2);
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, at);
    byte[0] = byte[0]! ^ 0x01;
    await handle.write(byte, 0, 1, at);
  } finally {
    await handle.close();
  }
}

/** An encrypted blob no row refers to: what a crash between storing and committing leaves behind. */
export async function putStray(blobStore: BlobStore, masterKey: Buffer, key: string): Promise<void> {
  const store = createEncryptedStore(blobStore, masterKey, { hashWorkers: 0 });
  await store.write(key, Readable.from([Buffer.from('nobody refers to these bytes')]));
}

export function kindsOf(report: CheckReport): string[] {
  return report.problems.map((p) => p.kind).sort();
}
