import type { IntegrityConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { IntegrityRepository } from '../db/repositories/integrity.repository.js';
import type { Logger } from '../logger.js';
import type { Clock } from '../services/clock.js';
import type { BlobStore } from '../storage/blob-store.js';
import { BlobVerifier } from './blob-verifier.js';
import { IntegrityCheckService } from './integrity-check.js';
import { IntegrityInspector } from './integrity-inspector.js';
import { IntegrityScrub, type ScrubOptions } from './integrity-scrub.js';

export interface Integrity {
  repo: IntegrityRepository;
  check: IntegrityCheckService;
  /** Null when the scrub is turned off. */
  scrub: IntegrityScrub | null;
}

/**
 * The check and the scrub over the raw blob store (not the encrypted wrapper): they need to list,
 * stat and read stored bytes, and they decrypt with the master key themselves.
 */
export function createIntegrity(deps: {
  db: Db;
  blobStore: BlobStore;
  masterKey: Buffer;
  clock: Clock;
  log: Logger;
  scrub: ScrubOptions | null;
}): Integrity {
  const repo = new IntegrityRepository(deps.db);
  const inspector = new IntegrityInspector(repo, deps.blobStore, new BlobVerifier(deps.blobStore, deps.masterKey), deps.clock);
  return {
    repo,
    check: new IntegrityCheckService(inspector, repo, deps.clock),
    scrub: deps.scrub ? new IntegrityScrub(inspector, repo, deps.clock, deps.log, deps.scrub) : null,
  };
}

/** Blobs no row refers to are left alone until this old: they may belong to an upload in flight. */
export const DEFAULT_GRACE_MS = 24 * 3_600_000;
/** The scrub reads at most this many stored bytes a second: a background chore, never a load. */
export const SCRUB_BYTES_PER_SECOND = 20 * 1024 * 1024;

/** The scrub's settings from config, or null when it is off (SCRUB_INTERVAL_MS=0, or no config). */
export function scrubOptionsOf(config: IntegrityConfig | undefined): ScrubOptions | null {
  if (!config || config.scrubIntervalMs <= 0) return null;
  return {
    intervalMs: config.scrubIntervalMs,
    batchSize: config.scrubBatchSize,
    rateBytesPerSecond: SCRUB_BYTES_PER_SECOND,
    graceMs: DEFAULT_GRACE_MS,
  };
}
