import { describe, expect, it } from 'vitest';
// The people evaluation is plain JavaScript, shared with `npm run eval:faces`.
// @ts-expect-error no type declarations for the .mjs corpus
import { groupPhotos, identities, PARTS, planPhotos, portraits, singlePhotos } from '../../eval/faces/corpus.mjs';

interface Identity {
  id: string;
  name: string;
  part: string;
}
interface PlannedPhoto {
  path: string;
  part: string;
  kind: string;
  identities: string[];
  source?: string;
}

const people = identities as Identity[];
const plan = planPhotos() as PlannedPhoto[];
const partOf = new Map(people.map((i) => [i.id, i.part]));

/** The held-out identities as they were written before any result was seen: changing them voids the figures. */
const HELD_OUT = ['bruce-willis', 'grace-hopper', 'jason-statham', 'john-shimkus', 'john-simm', 'tom-cruise'];

describe('the people evaluation corpus', () => {
  it('keeps its split: whole identities, the held-out ones fixed, about two fifths of them', () => {
    expect(people.filter((i) => i.part === 'heldOut').map((i) => i.id)).toEqual(expect.arrayContaining(HELD_OUT));
    expect(people.filter((i) => i.part === 'heldOut')).toHaveLength(HELD_OUT.length);
    expect(people.every((i) => (PARTS as string[]).includes(i.part))).toBe(true);
    expect(HELD_OUT.length / people.length).toBeGreaterThanOrEqual(0.35);
    expect(HELD_OUT.length / people.length).toBeLessThanOrEqual(0.5);
  });

  it('never shows a held-out identity in the tuning part, nor the other way round', () => {
    for (const photo of plan) {
      for (const identity of photo.identities) expect(partOf.get(identity), `${photo.path} shows ${identity}`).toBe(photo.part);
    }
    const groupParts = new Map<string, Set<string>>();
    for (const photo of plan.filter((p) => p.kind === 'group')) {
      groupParts.set(photo.source!, (groupParts.get(photo.source!) ?? new Set()).add(photo.part));
    }
    expect([...groupParts.values()].every((parts) => parts.size === 1)).toBe(true);
    expect(groupParts.size).toBe((groupPhotos as unknown[]).length);
  });

  it('gives every identity at least two photos, and at least two real photographs or one changed in several ways', () => {
    for (const who of people) {
      const photos = plan.filter((p) => p.identities.includes(who.id));
      expect(photos.length, who.id).toBeGreaterThanOrEqual(2);
      const real = (portraits as { identity: string }[]).filter((p) => p.identity === who.id).length;
      const single = (singlePhotos as { identity: string }[]).some((s) => s.identity === who.id);
      expect(real >= 2 || (single && photos.length >= 8), who.id).toBe(true);
    }
  });

  it('has several people in some photos, names each identity once, and a path per photo', () => {
    expect(plan.filter((p) => p.identities.length >= 2).length).toBeGreaterThanOrEqual(8);
    expect(new Set(people.map((i) => i.name)).size).toBe(people.length);
    expect(new Set(plan.map((p) => p.path)).size).toBe(plan.length);
  });

  it('plans the same photos every time', () => {
    expect(planPhotos()).toEqual(plan);
  });
});
