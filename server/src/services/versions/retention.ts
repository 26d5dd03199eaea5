/**
 * Which versions of one file retention keeps, as a pure function of the versions' times and the
 * clock: every version of the last 24 hours, the newest of each day for 30 days, the newest of
 * each week after that, and at most `maxPerFile` in all (the oldest go first). Days and weeks are
 * fixed UTC intervals counted from the epoch, so a version kept as its day's newest stays kept as
 * the clock moves on (until it is old enough to compete within its week).
 */
export const RETENTION = {
  keepAllMs: 24 * 3_600_000,
  dailyForMs: 30 * 24 * 3_600_000,
  dayMs: 24 * 3_600_000,
  weekMs: 7 * 24 * 3_600_000,
} as const;

export interface TimedVersion {
  id: string;
  uploadedAt: number;
}

/** The ids of `versions` that retention removes at `now`. */
export function versionsToThin(versions: readonly TimedVersion[], now: number, maxPerFile: number): string[] {
  const newestFirst = [...versions].sort((a, b) => b.uploadedAt - a.uploadedAt || (a.id < b.id ? 1 : -1));
  const kept: TimedVersion[] = [];
  const thinned: string[] = [];
  const seenBuckets = new Set<string>();
  for (const v of newestFirst) {
    const age = now - v.uploadedAt;
    let bucket: string | null = null;
    if (age >= RETENTION.dailyForMs) bucket = `w${Math.floor(v.uploadedAt / RETENTION.weekMs)}`;
    else if (age >= RETENTION.keepAllMs) bucket = `d${Math.floor(v.uploadedAt / RETENTION.dayMs)}`;
    if (bucket !== null) {
      if (seenBuckets.has(bucket)) {
        thinned.push(v.id);
        continue;
      }
      seenBuckets.add(bucket);
    }
    kept.push(v);
  }
  for (const v of kept.slice(Math.max(0, maxPerFile))) thinned.push(v.id);
  return thinned;
}
