import { afterAll, describe, expect, it } from 'vitest';
import { MediaUnprocessableError } from '../../src/media/errors.js';
import { distance, nearestPerson, SAME_PERSON_DISTANCE } from '../../src/people/face-clustering.js';
import { FaceDetector } from '../../src/people/face-detector.js';
import type { ClusterFace } from '../../src/people/people.repository.js';
import { WorkerTimeoutError } from '../../src/workers/pool.js';
import { facePhotos } from './face-photos.js';
import { personName } from '@nimbus/common';

const photos = await facePhotos();

describe.skipIf(!photos)('the face thread', () => {
  const detectors: FaceDetector[] = [];
  afterAll(async () => {
    await Promise.all(detectors.map((d) => d.close()));
  });

  it('ends when idle, giving its memory back, and starts again for the next photo', async () => {
    const detector = new FaceDetector({ idleTimeoutMs: 500 });
    detectors.push(detector);
    expect(detector.threads).toBe(0);
    const faces = await detector.detect(photos!.astronaut);
    expect(faces).toHaveLength(1);
    expect(faces[0]!.descriptor).toHaveLength(128);
    expect(detector.threads).toBe(1);
    await expect.poll(() => detector.threads, { timeout: 10_000, interval: 200 }).toBe(0);
    const again = await detector.detect(photos!.astronaut);
    expect(distance(again[0]!.descriptor, faces[0]!.descriptor)).toBeLessThan(1e-4);
  }, 120_000);

  it('gives up a pass past its deadline, and an image it cannot read', async () => {
    const detector = new FaceDetector({ taskTimeoutMs: 1 });
    detectors.push(detector);
    await expect(detector.detect(photos!.astronaut)).rejects.toBeInstanceOf(WorkerTimeoutError);
    await expect(detector.detect(Buffer.from('not an image'))).rejects.toBeInstanceOf(MediaUnprocessableError);
    // A photo cut short: its missing part is an error, not grey pixels.
    const cut = photos!.astronaut.subarray(0, Math.round(photos!.astronaut.length / 2));
    await expect(detector.detect(cut)).rejects.toBeInstanceOf(MediaUnprocessableError);
  }, 120_000);

  it('finds nobody in a picture without faces', async () => {
    const detector = new FaceDetector();
    detectors.push(detector);
    expect(await detector.detect(photos!.coffee)).toEqual([]);
  }, 120_000);
});

describe('grouping faces', () => {
  const at = (...values: number[]): Float32Array => {
    const d = new Float32Array(128);
    values.forEach((v, i) => (d[i] = v));
    return d;
  };
  const face = (id: string, personId: string | null, descriptor: Float32Array, rejectedPersonId: string | null = null): ClusterFace => ({
    id,
    fileId: `file-${id}`,
    personId,
    rejectedPersonId,
    descriptor,
  });

  it('joins the person of the nearest face within the threshold, else nobody', () => {
    const known = [face('a1', 'anna', at(0)), face('a2', 'anna', at(0.3)), face('b1', 'ben', at(0, 0.45))];
    expect(nearestPerson(face('n', null, at(0.28)), known, new Set())).toBe('anna');
    expect(nearestPerson(face('n', null, at(0, 0.4)), known, new Set())).toBe('ben');
    expect(nearestPerson(face('n', null, at(0, 0, SAME_PERSON_DISTANCE + 0.01)), known, new Set())).toBeNull();
  });

  it('never picks a person the face was removed from, nor one already in the same photo', () => {
    const known = [face('a1', 'anna', at(0)), face('b1', 'ben', at(0.35))];
    expect(nearestPerson(face('n', null, at(0.1), 'anna'), known, new Set())).toBe('ben');
    expect(nearestPerson(face('n', null, at(0.1)), known, new Set(['anna']))).toBe('ben');
    expect(nearestPerson(face('n', null, at(0.1), 'anna'), known, new Set(['ben']))).toBeNull();
  });

  it('stays a single pass over thousands of faces', () => {
    const known = Array.from({ length: 5000 }, (_, i) => face(`f${i}`, `p${i % 500}`, at(1 + i / 1000, i % 7)));
    const started = performance.now();
    for (let i = 0; i < 20; i++) nearestPerson(face('n', null, at(3, 2)), known, new Set());
    // 20 new faces against 5,000 known: well under a millisecond each on any machine this runs on.
    expect((performance.now() - started) / 20).toBeLessThan(20);
  });
});

describe('a person’s name', () => {
  it('is trimmed, 1–100 characters, without control characters; null clears it', () => {
    expect(personName.parse('  Anna  ')).toBe('Anna');
    expect(personName.parse(null)).toBeNull();
    expect(personName.parse('😀'.repeat(100))).toBe('😀'.repeat(100));
    for (const bad of ['', '   ', 'x'.repeat(101), 'a\u0000b', 'a\tb', 'a\u0085b', 'a\u2028b', 5, {}]) {
      expect(personName.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
