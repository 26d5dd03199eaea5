/**
 * What an integrity check finds. Problems make `nimbus check` exit 1; notes (a blob no row refers
 * to yet, young enough to be an upload in flight) are shown but are not problems.
 */
export const FINDING_KINDS = [
  /** A row refers to a blob that is not stored. */
  'missing-blob',
  /** The blob fails authentication: altered or truncated bytes. Never removed. */
  'corrupt-blob',
  /** The blob's stored plaintext size is not the size its row records. */
  'size-mismatch',
  /** The blob's bytes authenticate but are not the content its row records (SHA-256): another content's blob. */
  'hash-mismatch',
  /** The row's wrapped data key does not open with the master key. */
  'bad-key',
  /** The store failed to serve the blob (an error after its retries); a later check may read it. */
  'unreadable-blob',
  /** A stored blob no row refers to, older than the grace period: garbage. */
  'stray-blob',
  /** A thumbnail/preview row whose file is gone: garbage. */
  'orphan-thumbnail',
  /** A stored blob no row refers to yet, within the grace period (note, not a problem). */
  'recent-stray-blob',
] as const;

export type FindingKind = (typeof FINDING_KINDS)[number];

/**
 * What a blob is to Nimbus: a file's content, an earlier content (version) of it, its thumbnail or
 * preview, a video's playable rendition, or bytes of no known row.
 */
export type BlobRole = 'file' | 'version' | 'thumbnail' | 'preview' | 'rendition' | 'motion-clip' | 'unreferenced';

export interface Finding {
  kind: FindingKind;
  role: BlobRole;
  /** Blob key, when one is involved. */
  key: string | null;
  fileId: string | null;
  /** The version whose blob it is (role `version`). */
  versionId?: string;
  detail: string;
  /** True once --repair removed it. */
  repaired: boolean;
}

export interface IntegrityCounts {
  files: number;
  /** Versions (earlier contents of files) verified. */
  versions: number;
  thumbnails: number;
  /** Videos' playable renditions verified (absent in counts saved before they existed). */
  renditions?: number;
  /** Motion photos' clips verified (absent in counts saved before they existed). */
  motionClips?: number;
  /** Stored bytes read and authenticated. */
  bytesVerified: number;
  blobsListed: number;
  /** Listed blobs outside the namespaces Nimbus writes (left alone). */
  foreignBlobs: number;
  problems: number;
  notes: number;
  repaired: number;
  byKind: Partial<Record<FindingKind, number>>;
}

/** Findings listed in full per run; beyond it only the counts grow, so state and output stay small. */
export const MAX_LISTED = 1000;

export function isProblem(kind: FindingKind): boolean {
  return kind !== 'recent-stray-blob';
}

export function emptyCounts(): IntegrityCounts {
  return {
    files: 0,
    versions: 0,
    thumbnails: 0,
    bytesVerified: 0,
    blobsListed: 0,
    foreignBlobs: 0,
    problems: 0,
    notes: 0,
    repaired: 0,
    byKind: {},
  };
}

/** The running counts and findings of one check or scrub cycle; plain data, persisted as JSON. */
export interface Tally {
  counts: IntegrityCounts;
  problems: Finding[];
  notes: Finding[];
}

export function emptyTally(): Tally {
  return { counts: emptyCounts(), problems: [], notes: [] };
}

export function record(tally: Tally, finding: Finding): void {
  const { counts } = tally;
  counts.byKind[finding.kind] = (counts.byKind[finding.kind] ?? 0) + 1;
  if (finding.repaired) counts.repaired += 1;
  const list = isProblem(finding.kind) ? tally.problems : tally.notes;
  if (isProblem(finding.kind)) counts.problems += 1;
  else counts.notes += 1;
  if (list.length < MAX_LISTED) list.push(finding);
}
