import { describe, expect, it } from 'vitest';
import { meanDirection } from '../../src/search/extract/picture-embedding.js';
import { aboutTheQuery, promptFor, PICTURE_MARGIN, PICTURE_RELATIVE_FLOOR } from '../../src/search/rank/picture-search.js';
import type { VectorHit } from '../../src/search/rank/vector-index.js';

const hit = (itemId: string, score: number, contrast: number): VectorHit => ({ itemId, itemType: 'file', kind: 'photo', score, contrast });

describe('pictures that answer a question', () => {
  it('keeps pictures that match the question better than a neutral prompt, near the best one', () => {
    const hits = [
      hit('beach', 0.31, 0.22),
      hit('dunes', 0.3, 0.26),
      // Matches anything as well as the question: a photo, not an answer.
      hit('street', 0.29, 0.29 - PICTURE_MARGIN / 2),
      // Clear of its neutral prompts but far below the best answer.
      hit('far', 0.31 - PICTURE_RELATIVE_FLOOR - 0.01, 0.1),
    ];
    expect(aboutTheQuery(hits).map((h) => h.itemId)).toEqual(['beach', 'dunes']);
  });

  it('answers nothing when no picture stands out from the neutral prompts', () => {
    expect(aboutTheQuery([hit('a', 0.24, 0.25), hit('b', 0.23, 0.23)])).toEqual([]);
    expect(aboutTheQuery([])).toEqual([]);
  });

  it('asks the model the way it was trained: a caption', () => {
    expect(promptFor(['dog', 'beach'])).toBe('a photo of dog beach');
    expect(promptFor(Array.from({ length: 100 }, () => 'word')).split(' ').length).toBe(3 + 24);
  });
});

describe('one vector for the frames of a video', () => {
  it("is the normalised mean of the frames' unit vectors", () => {
    const mean = meanDirection([Float32Array.of(1, 0), Float32Array.of(0, 1)])!;
    expect(mean[0]).toBeCloseTo(Math.SQRT1_2);
    expect(mean[1]).toBeCloseTo(Math.SQRT1_2);
    expect(meanDirection([Float32Array.of(0.6, 0.8)])).toEqual(Float32Array.of(0.6, 0.8));
    expect(meanDirection([])).toBeNull();
    // Opposite frames cancel out: no direction.
    expect(meanDirection([Float32Array.of(1, 0), Float32Array.of(-1, 0)])).toBeNull();
  });
});
