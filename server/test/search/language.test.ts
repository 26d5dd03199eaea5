import { describe, expect, it } from 'vitest';
import { landmarkPlaces } from '../../src/search/language/landmarks.js';
import { relatedWords } from '../../src/search/language/related-words.js';
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

describe('related words', () => {
  it('gives the other words of a word’s commonest sense, then kinds of it', () => {
    expect(relatedWords('automobile')).toEqual(expect.arrayContaining(['car', 'auto', 'sedan']));
    expect(relatedWords('photograph')).toContain('picture');
    expect(relatedWords('boat')).toEqual(expect.arrayContaining(['ferry', 'tugboat']));
    expect(relatedWords('dogs')).toContain('puppy');
  });

  it('leaves out rarer senses, named instances and the word itself', () => {
    // "dog" as a verb (to chase) and "mountain" as a great many are rare senses.
    expect(relatedWords('dog')).not.toContain('chase');
    expect(relatedWords('mountain')).not.toContain('heap');
    expect(relatedWords('mountain')).not.toContain('fuji');
    expect(relatedWords('car')).not.toContain('car');
    expect(relatedWords('car').length).toBeLessThanOrEqual(40);
  });

  it('knows nothing of words WordNet lacks', () => {
    expect(relatedWords('qwxz')).toEqual([]);
    expect(relatedWords('2024')).toEqual([]);
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
