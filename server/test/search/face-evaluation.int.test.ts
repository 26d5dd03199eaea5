import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The people evaluation is plain JavaScript, shared with `npm run eval:faces`.
// @ts-expect-error no type declarations for the .mjs harness
import { evaluationClock } from '../../eval/harness.mjs';
// @ts-expect-error no type declarations for the .mjs corpus
import { subsetPaths } from '../../eval/faces/corpus.mjs';
// @ts-expect-error no type declarations for the .mjs harness
import { reportFaces, runFaceEvaluation } from '../../eval/faces/harness.mjs';
// @ts-expect-error no type declarations for the .mjs renderer
import { renderFaces } from '../../eval/faces/render.mjs';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

interface PartResult {
  photos: number;
  expectedKnown: number;
  matchedKnown: number;
  extra: number;
  purity: number;
  recall: number;
  nameHitRate: number;
  unknownNameAnswers: number;
  queries: { identity: string | null; scene: string | null }[];
}

/**
 * The photographs come from Debian's packages (apt-get download): in CI they must be had;
 * elsewhere, without apt or root, this evaluation is skipped.
 */
const manifest: unknown = await (renderFaces({ only: subsetPaths() }) as Promise<unknown>).catch((err: unknown) => {
  if (process.env.CI) throw err;
  return null;
});

/**
 * Floors from the measured figures of the tuning part's subset (26 photos: five men, four photos
 * each, four pasted groups, one real group photo and its mirrored copy): every known face found,
 * purity and recall 100 %, each name's photos in the top 5. Each floor leaves room for a face or
 * a query.
 */
const FLOOR = { detection: 0.9, purity: 0.95, recall: 0.9, nameHitRate: 0.8 };

describe.skipIf(!manifest)('people in photos on real faces (test subset)', () => {
  let t: TestApp;
  let result: PartResult;

  beforeAll(async () => {
    const clock = evaluationClock();
    t = await createTestApp({}, { clock });
    const results = (await runFaceEvaluation(t.app, clock, manifest, { parts: ['tuning'] })) as PartResult[];
    console.log(reportFaces(results));
    result = results[0]!;
  }, 300_000);

  afterAll(() => t?.close());

  it('finds the faces, one person per man, and finds each man by name', () => {
    expect(result.photos).toBeGreaterThanOrEqual(25);
    expect(result.matchedKnown / result.expectedKnown).toBeGreaterThanOrEqual(FLOOR.detection);
    expect(result.extra).toBeLessThanOrEqual(1);
    expect(result.purity).toBeGreaterThanOrEqual(FLOOR.purity);
    expect(result.recall).toBeGreaterThanOrEqual(FLOOR.recall);
    expect(result.queries.filter((q) => q.identity && !q.scene).length).toBe(5);
    expect(result.nameHitRate).toBeGreaterThanOrEqual(FLOOR.nameHitRate);
    expect(result.unknownNameAnswers).toBe(0);
  });
});
