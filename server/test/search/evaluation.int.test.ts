import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The evaluation harness is plain JavaScript, shared with `npm run eval:search`.
// @ts-expect-error no type declarations for the .mjs harness
import { evaluationClock, report, runEvaluation } from '../../eval/harness.mjs';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

interface Summary {
  queries: number;
  hitAt5: number;
  precisionAt5: number;
  mrr: number;
}

/**
 * Floors set from measured figures of the test subset (12 queries over 31 files: 100 % in the
 * top 5, precision@5 1.00, MRR 0.96 on SQLite and PostgreSQL), with room for one miss.
 */
const FLOOR = { hitAt5: 0.9, precisionAt5: 0.85, mrr: 0.85 };

describe('AI search quality on the evaluation subset', () => {
  let t: TestApp;
  let run: { summary: Summary };

  beforeAll(async () => {
    const clock = evaluationClock();
    t = await createTestApp({}, { clock });
    run = await runEvaluation(t.app, clock, { subset: true });
    console.log(report(run));
  }, 240_000);

  afterAll(() => t?.close());

  it('finds the right file in the top 5 and ranks it high', () => {
    expect(run.summary.queries).toBeGreaterThanOrEqual(12);
    expect(run.summary.hitAt5).toBeGreaterThanOrEqual(FLOOR.hitAt5);
    expect(run.summary.precisionAt5).toBeGreaterThanOrEqual(FLOOR.precisionAt5);
    expect(run.summary.mrr).toBeGreaterThanOrEqual(FLOOR.mrr);
  });
});
