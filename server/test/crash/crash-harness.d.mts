export interface CrashKind {
  db: 'sqlite' | 'postgres';
  storage: 'fs' | 's3';
}

export interface Violation {
  trial: number | 'end' | 'after-repair';
  kind: string;
  detail: string;
}

export interface CrashStats {
  seed: number;
  kind: string;
  trials: number;
  kills: number;
  operations: number;
  answered: number;
  cut: number;
  invariants: number;
  strandedJobs: number;
  straysCollected: number;
  s3Restarts: number;
  versions: number;
  violations: Violation[];
  durationMs: number;
}

export function prng(seed: number): { next(): number; int(lo: number, hi: number): number; chance(p: number): boolean };

export function runCrashTrials(options: {
  seed: number;
  trials: number;
  kind: CrashKind;
  concurrency?: number;
  killWindowMs?: [number, number];
  drainTimeoutMs?: number;
  /** Weights of operations by name, over the default mix (0 leaves one out). */
  weights?: Record<string, number>;
  log?: (line: string) => void;
}): Promise<CrashStats>;

/** Violation kinds of known, reported and not yet fixed bugs (see README "Not done yet"). */
export const KNOWN_VIOLATIONS: readonly string[];
