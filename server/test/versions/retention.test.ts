import { describe, expect, it } from 'vitest';
import { RETENTION, versionsToThin, type TimedVersion } from '../../src/services/versions/retention.js';

const HOUR = 3_600_000;
const DAY = RETENTION.dayMs;
const WEEK = RETENTION.weekMs;
/** A fixed clock: a Thursday noon UTC, so day and week buckets fall at known places. */
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

function at(id: string, uploadedAt: number): TimedVersion {
  return { id, uploadedAt };
}

/** The ids retention keeps of `versions` at `now`, newest first. */
function kept(versions: TimedVersion[], now = NOW, max = 50): string[] {
  const gone = new Set(versionsToThin(versions, now, max));
  return [...versions]
    .sort((a, b) => b.uploadedAt - a.uploadedAt)
    .filter((v) => !gone.has(v.id))
    .map((v) => v.id);
}

describe('versionsToThin', () => {
  it('keeps every version of the last 24 hours, however many', () => {
    const versions = Array.from({ length: 40 }, (_, i) => at(`v${i}`, NOW - i * 30 * 60_000));
    expect(versionsToThin(versions, NOW, 50)).toEqual([]);
  });

  it('a version exactly 24 hours old is in the daily rule, one a millisecond younger is kept whatever', () => {
    const dayStart = Math.floor((NOW - DAY) / DAY) * DAY;
    // Both in the same UTC day, more than 24 h old: only the newer survives.
    const versions = [at('young', NOW - DAY + 1), at('edge', NOW - DAY), at('older-same-day', dayStart)];
    expect(kept(versions)).toEqual(['young', 'edge']);
  });

  it('between a day and 30 days: the newest of each UTC day', () => {
    const versions: TimedVersion[] = [];
    for (let d = 2; d <= 5; d++) {
      const day = Math.floor((NOW - d * DAY) / DAY) * DAY;
      versions.push(at(`d${d}-morning`, day + 8 * HOUR), at(`d${d}-noon`, day + 12 * HOUR), at(`d${d}-night`, day + 23 * HOUR));
    }
    expect(kept(versions)).toEqual(['d2-night', 'd3-night', 'd4-night', 'd5-night']);
  });

  it('after 30 days: the newest of each week, the week counted in fixed UTC intervals', () => {
    const versions: TimedVersion[] = [];
    // One version a day from day 31 to day 58 back: four weeks' worth.
    for (let d = 31; d <= 58; d++) versions.push(at(`d${d}`, NOW - d * DAY));
    const survivors = kept(versions);
    // Each survivor is the newest of its week bucket; every bucket has one.
    const weekOf = (v: TimedVersion) => Math.floor(v.uploadedAt / WEEK);
    const buckets = new Set(versions.map(weekOf));
    expect(survivors).toHaveLength(buckets.size);
    for (const id of survivors) {
      const v = versions.find((x) => x.id === id)!;
      const newestOfWeek = versions.filter((x) => weekOf(x) === weekOf(v)).sort((a, b) => b.uploadedAt - a.uploadedAt)[0]!;
      expect(newestOfWeek.id).toBe(id);
    }
    expect(survivors[0]).toBe('d31');
  });

  it('the three rules together: a year of daily versions', () => {
    const versions = Array.from({ length: 365 }, (_, d) => at(`d${d}`, NOW - d * DAY - HOUR));
    const survivors = kept(versions, NOW, 10_000);
    // Day 0 (one hour old) is kept whole; days 1–29 one each; after that one a week (52 weeks, give or take the edges).
    expect(survivors.slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, d) => `d${d}`));
    const weekly = survivors.slice(30);
    expect(weekly.length).toBeGreaterThanOrEqual(48);
    expect(weekly.length).toBeLessThanOrEqual(50);
  });

  it('at most maxPerFile are kept: the oldest go first, the last day included', () => {
    const versions = Array.from({ length: 10 }, (_, i) => at(`v${i}`, NOW - i * HOUR));
    expect(kept(versions, NOW, 3)).toEqual(['v0', 'v1', 'v2']);
    expect(new Set(versionsToThin(versions, NOW, 3))).toEqual(new Set(['v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9']));
  });

  it('maxPerFile 0 keeps none', () => {
    const versions = [at('a', NOW - HOUR), at('b', NOW - 40 * DAY)];
    expect(new Set(versionsToThin(versions, NOW, 0))).toEqual(new Set(['a', 'b']));
  });

  it('is idempotent and stable as the clock moves: what is kept now is not thinned again at the same time', () => {
    const versions = Array.from({ length: 200 }, (_, i) => at(`v${i}`, NOW - i * 7 * HOUR));
    const first = kept(versions);
    const survivors = versions.filter((v) => first.includes(v.id));
    expect(versionsToThin(survivors, NOW, 50)).toEqual([]);
    // A day's newest stays kept a day later (until it must compete within its week). Days whose
    // every version was already past the first 24 hours: nothing newer can join them.
    const later = kept(survivors, NOW + DAY);
    let checked = 0;
    for (const id of first) {
      const v = versions.find((x) => x.id === id)!;
      if (NOW + DAY - v.uploadedAt < RETENTION.dailyForMs && NOW - v.uploadedAt >= 2 * DAY) {
        expect(later).toContain(id);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('ties on the time break by id, so every process thins the same ones', () => {
    const t = NOW - 3 * DAY;
    const versions = [at('b', t), at('a', t), at('c', t)];
    expect(new Set(versionsToThin(versions, NOW, 50))).toEqual(new Set(['a', 'b']));
    expect(new Set(versionsToThin([...versions].reverse(), NOW, 50))).toEqual(new Set(['a', 'b']));
  });

  it('an empty list and versions in the future thin nothing', () => {
    expect(versionsToThin([], NOW, 50)).toEqual([]);
    expect(versionsToThin([at('future', NOW + HOUR)], NOW, 50)).toEqual([]);
  });
});
