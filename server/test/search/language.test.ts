import { describe, expect, it } from 'vitest';
import { landmarkPlaces } from '../../src/search/language/landmarks.js';
import { editDistance, isKnownWord, spellingCandidates } from '../../src/search/language/spelling.js';

describe('spelling', () => {
  it('counts letters added, dropped, changed and swapped, stopping past the limit', () => {
    expect(editDistance('sunest', 'sunset', 2)).toBe(1);
    expect(editDistance('pasport', 'passport', 2)).toBe(1);
    expect(editDistance('montains', 'mountains', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('abc', 'xyzuvw', 1)).toBe(2);
  });

  it('offers likely words for a misspelling, the closest and commonest first', () => {
    expect(spellingCandidates('pasport')[0]).toBe('passport');
    expect(spellingCandidates('electrisity')[0]).toBe('electricity');
    expect(spellingCandidates('recipies')).toContain('recipes');
    expect(spellingCandidates('squirel')).toContain('squirrel');
  });

  it('leaves known words, their plurals, short words and numbers alone', () => {
    expect(isKnownWord('mountains')).toBe(true);
    expect(isKnownWord('invoices')).toBe(true);
    expect(spellingCandidates('passport')).toEqual([]);
    expect(spellingCandidates('cats')).toEqual([]);
    expect(spellingCandidates('abc')).toEqual([]);
    expect(spellingCandidates('2024')).toEqual([]);
  });
});

describe('landmarks', () => {
  it('gives the place of a landmark named in the query, by its longest name', () => {
    expect(landmarkPlaces(['big', 'ben'])).toEqual(['london']);
    expect(landmarkPlaces(['photos', 'of', 'the', 'tower', 'of', 'london'])).toEqual(['london']);
    expect(landmarkPlaces(['colosseum', 'and', 'sagrada', 'familia'])).toEqual(['rome', 'barcelona']);
    expect(landmarkPlaces(['golden', 'gate', 'bridge'])).toEqual(['san', 'francisco']);
    expect(landmarkPlaces(['invoice'])).toEqual([]);
  });
});
