import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDavApp, type DavAccount, type DavHarness } from '../dav/dav-support.js';
import { createIntegrity } from '../../src/integrity/create-integrity.js';
import { LocalDiskStore } from '../../src/storage/local-disk.store.js';
import { check, flipByte, HOUR, integrityOf, kindsOf } from '../integrity/support.js';

describe('nimbus check: versions', () => {
  const clock = { now: () => Date.now() };
  const later = (ms: number) => ({ now: () => Date.now() + ms });
  let h: DavHarness;
  let me: DavAccount;
  let disk: LocalDiskStore;
  let fileId: string;

  beforeAll(async () => {
    h = await startDavApp();
    me = await h.account();
    disk = new LocalDiskStore((h.config.storage as { root: string }).root);
  });
  afterAll(() => h.close());

  const db = () => h.app.database.db;
  const versions = () =>
    db()
      .selectFrom('fileVersion')
      .select(['id', 'storageKey', 'size', 'sha256'])
      .where('fileId', '=', fileId)
      .orderBy('uploadedAt')
      .execute();

  it('verifies every version’s bytes and counts no version blob as stray, however old', async () => {
    for (const text of ['first words', 'second words, longer', 'third and current words'])
      expect((await me.dav.put('/dav/essay.txt', text)).status).toBeLessThan(300);
    fileId = (await db().selectFrom('file').select('id').where('filename', '=', 'essay.txt').executeTakeFirstOrThrow()).id;
    expect(await versions()).toHaveLength(2);

    const report = await check(integrityOf(h, later(48 * HOUR)), { repair: true, graceMs: 0 });
    expect(report.outcome).toBe('complete');
    expect(report.problems).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.counts).toMatchObject({ files: 1, versions: 2, blobsListed: 3, problems: 0, repaired: 0 });
    expect(report.counts.bytesVerified).toBeGreaterThan('first words'.length + 'second words, longer'.length);
    for (const v of await versions()) expect(await disk.stat(v.storageKey)).not.toBeNull();
  });

  it('reports a damaged version naming its file and version, and --repair leaves its bytes alone', async () => {
    const [oldest] = await versions();
    await flipByte(h, oldest!.storageKey);
    const report = await check(integrityOf(h, later(48 * HOUR)), { repair: true, graceMs: 0 });
    expect(report.problems).toEqual([
      expect.objectContaining({
        kind: 'corrupt-blob',
        role: 'version',
        fileId,
        versionId: oldest!.id,
        key: oldest!.storageKey,
        repaired: false,
      }),
    ]);
    expect(report.problems[0]!.detail).toContain(`version ${oldest!.id}`);
    expect(await disk.stat(oldest!.storageKey)).not.toBeNull();
    await flipByte(h, oldest!.storageKey);
    expect((await check(integrityOf(h, clock))).problems).toEqual([]);
  });

  it('reports a version whose blob is gone, whose size is wrong, or whose bytes are another content', async () => {
    const [oldest, newer] = await versions();
    await db()
      .updateTable('fileVersion')
      .set({ size: oldest!.size + 1 })
      .where('id', '=', oldest!.id)
      .execute();
    await db()
      .updateTable('fileVersion')
      .set({ sha256: '0'.repeat(64) })
      .where('id', '=', newer!.id)
      .execute();
    const report = await check(integrityOf(h, clock));
    expect(kindsOf(report)).toEqual(['hash-mismatch', 'size-mismatch']);
    expect(report.problems).toContainEqual(
      expect.objectContaining({ kind: 'hash-mismatch', role: 'version', fileId, versionId: newer!.id }),
    );
    expect(report.problems).toContainEqual(
      expect.objectContaining({ kind: 'size-mismatch', role: 'version', fileId, versionId: oldest!.id }),
    );
    await db().updateTable('fileVersion').set({ size: oldest!.size }).where('id', '=', oldest!.id).execute();
    await db().updateTable('fileVersion').set({ sha256: newer!.sha256 }).where('id', '=', newer!.id).execute();

    const saved = await readAll(disk, newer!.storageKey);
    await disk.delete(newer!.storageKey);
    const missing = await check(integrityOf(h, clock), { repair: true });
    expect(missing.problems).toEqual([
      expect.objectContaining({ kind: 'missing-blob', role: 'version', fileId, versionId: newer!.id, key: newer!.storageKey }),
    ]);
    await disk.put(newer!.storageKey, Readable.from([saved]));
    expect((await check(integrityOf(h, clock))).problems).toEqual([]);
  });

  it('reports a file whose bytes are not the content its row records', async () => {
    const current = await db().selectFrom('file').select('sha256').where('id', '=', fileId).executeTakeFirstOrThrow();
    await db()
      .updateTable('file')
      .set({ sha256: 'f'.repeat(64) })
      .where('id', '=', fileId)
      .execute();
    const report = await check(integrityOf(h, clock));
    expect(report.problems).toEqual([expect.objectContaining({ kind: 'hash-mismatch', role: 'file', fileId })]);
    await db().updateTable('file').set({ sha256: current.sha256 }).where('id', '=', fileId).execute();
  });

  it('the background scrub verifies versions too', async () => {
    const [oldest] = await versions();
    await flipByte(h, oldest!.storageKey);
    let now = Date.now() + 48 * HOUR;
    const integrity = createIntegrity({
      db: db(),
      blobStore: disk,
      masterKey: h.config.secrets.encryptionKey,
      clock: { now: () => (now += 60_000) },
      log: { info() {}, warn() {}, error() {} },
      scrub: { intervalMs: 1000, batchSize: 1, rateBytesPerSecond: 1e9, graceMs: 0 },
    });
    let state = await integrity.scrub!.runBatch();
    for (let i = 0; i < 20 && state.cycles === 0; i++) state = await integrity.scrub!.runBatch();
    expect(state.lastCycle?.counts).toMatchObject({ files: 1, versions: 2, problems: 1, repaired: 0 });
    expect(state.lastCycle?.problems).toEqual([expect.objectContaining({ kind: 'corrupt-blob', role: 'version', versionId: oldest!.id })]);
    expect(await disk.stat(oldest!.storageKey)).not.toBeNull();
    await flipByte(h, oldest!.storageKey);
  });
});

async function readAll(store: LocalDiskStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await store.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
