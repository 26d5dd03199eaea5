import { wordnet } from './wordnet.js';

/** Words shorter than this are left alone: too many real words lie one letter apart. */
const MIN_LENGTH = 4;

/** Words by length and first letter: a misspelling rarely gets its first letter wrong. */
let byLength: Map<string, string[]> | null = null;

/** English words and how common each is (WordNet's lemmas), grouped for the candidate scan. */
function words(): { vocabulary: Map<string, number>; byLength: Map<string, string[]> } {
  const vocabulary = wordnet().frequency;
  if (byLength) return { vocabulary, byLength };
  const lengths = new Map<string, string[]>();
  for (const word of vocabulary.keys()) {
    const key = bucket(word.length, word[0]!);
    const list = lengths.get(key) ?? [];
    list.push(word);
    lengths.set(key, list);
  }
  byLength = lengths;
  return { vocabulary, byLength };
}

function bucket(length: number, first: string): string {
  return `${length}${first}`;
}

/** Whether `term` is an English word, as written or as the plural or inflection of one. */
export function isKnownWord(term: string): boolean {
  const { vocabulary: known } = words();
  return [
    term,
    term.replace(/s$/, ''),
    term.replace(/es$/, ''),
    term.replace(/ies$/, 'y'),
    term.replace(/ed$/, ''),
    term.replace(/ing$/, ''),
  ].some((form) => form.length > 1 && known.has(form));
}

/** How many likely corrections are offered for one word. */
const MAX_CANDIDATES = 8;

/**
 * The English words `term` may misspell, likeliest first: the closest by edit distance (letters
 * added, dropped, changed or swapped; one for short words, two from seven letters), as written or
 * as a plural, the commoner first among equals; among words that start like it (its first letter,
 * or its second when the first two are swapped). Empty for a known word, a short one, or one
 * with digits.
 */
export function spellingCandidates(term: string): string[] {
  if (term.length < MIN_LENGTH || /\d/.test(term) || isKnownWord(term)) return [];
  const { vocabulary: known, byLength: lengths } = words();
  const limit = term.length >= 7 ? 2 : 1;
  const found = new Map<string, { distance: number; count: number }>();
  // Words starting with the term's first letter, or its second (the first two swapped).
  const firsts = [...new Set([term[0]!, term[1]!])];
  for (let length = term.length - limit - 2; length <= term.length + limit; length++) {
    for (const word of firsts.flatMap((first) => lengths.get(bucket(length, first)) ?? [])) {
      for (const form of [word, `${word}s`, `${word}es`]) {
        const distance = editDistance(term, form, limit);
        if (distance > limit) continue;
        const count = known.get(word) ?? 0;
        const seen = found.get(form);
        if (!seen || distance < seen.distance) found.set(form, { distance, count });
      }
    }
  }
  return [...found]
    .sort(([, a], [, b]) => a.distance - b.distance || b.count - a.count)
    .slice(0, MAX_CANDIDATES)
    .map(([form]) => form);
}

/** Optimal string alignment distance (a swap of neighbours counts once), or more than `max` as soon as it must be. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}
