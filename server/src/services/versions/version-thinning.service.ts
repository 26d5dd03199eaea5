import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { QuotaPolicy } from '../admin/quota-policy.js';
import type { Clock } from '../clock.js';
import type { DriveEvents } from '../drive/drive-events.js';
import { RETENTION } from './retention.js';
import type { FileVersions } from './file-versions.js';

/** Files thinned per transaction. */
const BATCH = 200;

export interface ThinningOutcome {
  /** Files whose versions retention looked at. */
  files: number;
  /** Versions let go (their blobs handed to the blob-deletion job). */
  released: number;
}

/**
 * Retention as time passes: a version is thinned when it is stored (per file, at that moment), but
 * a version that was its day's newest a month ago is not its week's, and the owner's quota may
 * have shrunk since. This walks every file with a version older than a day, applying the same
 * rules at the clock's now, and keeps each walked owner's versions within their share of the
 * quota. Each batch is one transaction under its owners' locks, so a restore or a replacement
 * never sees a version vanish under it; a run at the same time changes nothing (idempotent).
 */
export class VersionThinning {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly versions: FileVersions,
    private readonly quota: QuotaPolicy,
    private readonly events: DriveEvents,
    private readonly clock: Clock,
  ) {}

  async run(): Promise<ThinningOutcome> {
    const now = this.clock.now();
    const outcome: ThinningOutcome = { files: 0, released: 0 };
    let after: string | null = null;
    for (;;) {
      const files = await this.uow.repos.versions.filesWithVersionsBefore(now - RETENTION.keepAllMs, after, BATCH);
      if (files.length === 0) break;
      after = files[files.length - 1]!.fileId;
      outcome.files += files.length;
      outcome.released += await this.thinBatch(files, now);
      if (files.length < BATCH) break;
    }
    if (outcome.released > 0) this.events.committed();
    return outcome;
  }

  private async thinBatch(files: { fileId: string; ownerId: string }[], now: number): Promise<number> {
    const byOwner = new Map<string, string[]>();
    for (const { fileId, ownerId } of files) (byOwner.get(ownerId) ?? byOwner.set(ownerId, []).get(ownerId)!).push(fileId);
    return this.uow.run(async (r) => {
      let released = 0;
      // Owners in one order in every run: two runs at once never wait on each other crosswise.
      for (const ownerId of [...byOwner.keys()].sort()) {
        await r.folders.lockTree(ownerId);
        const keys: string[] = [];
        for (const fileId of byOwner.get(ownerId)!) keys.push(...(await this.versions.applyFileCap(r, fileId, now)));
        const quotaBytes = await this.quota.limitOf(ownerId, r.db);
        keys.push(...(await this.versions.makeRoom(r, ownerId, quotaBytes, 0)));
        await this.events.blobsReleased(r.db, ownerId, keys);
        released += keys.length;
      }
      return released;
    });
  }
}
