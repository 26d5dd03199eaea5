import { synset, wordnet, type Synset } from './wordnet.js';

/**
 * Only a word's commonest sense, and as a noun when it is one: people search for things, and a
 * word's rarer senses ("dog" as a verb, "mountain" as a great many) would match unrelated files.
 */
const SENSES = 1;
/** How far down a noun's kinds are followed ("fruit" → edible fruit → apple). */
const HYPONYM_DEPTH = 2;
/** Beyond this a word's relatives are too many to be checked against the owner's files. */
const MAX_RELATED = 40;

/** Forms a query word may be an inflection of, as WordNet lists lemmas only. */
function lemmaOf(term: string): string | null {
  const { senses } = wordnet();
  const forms = [
    term,
    term.replace(/ies$/, 'y'),
    term.replace(/es$/, ''),
    term.replace(/s$/, ''),
    term.replace(/ing$/, ''),
    term.replace(/ed$/, ''),
  ];
  return forms.find((form) => form.length > 2 && senses.has(form)) ?? null;
}

/**
 * Words that mean the same as `term` or name a kind of it, nearest first, from WordNet: the
 * other words of its commonest senses ("automobile" → car, "photograph" → picture), then for
 * nouns the kinds below it up to two levels ("boat" → ferry, "dog" → puppy). Empty for a word
 * WordNet does not know. The term itself and its lemma are left out.
 */
export function relatedWords(term: string): string[] {
  const lemma = lemmaOf(term);
  if (!lemma) return [];
  const synonyms: string[] = [];
  const kinds: string[] = [];
  const parts = wordnet().senses.get(lemma) ?? [];
  const nouns = parts.filter((p) => p.pos === 'n');
  for (const { pos, offsets } of nouns.length > 0 ? nouns : parts.slice(0, 1)) {
    for (const offset of offsets.slice(0, SENSES)) {
      const set = synset(pos, offset);
      synonyms.push(...set.words);
      if (pos === 'n') kinds.push(...hyponyms(set.pointers, HYPONYM_DEPTH));
    }
  }
  const own = new Set([term, lemma]);
  return [...new Set([...synonyms, ...kinds])].filter((w) => !own.has(w) && w.length > 2).slice(0, MAX_RELATED);
}

/** Breadth first, so nearer kinds come before further ones. */
function hyponyms(pointers: Synset['pointers'], depth: number): string[] {
  const found: string[] = [];
  // Kinds, not instances: "mountain" should not bring every named peak.
  let level = pointers.filter((p) => p.symbol === '~');
  for (let d = 0; d < depth && level.length > 0; d++) {
    const next: typeof level = [];
    for (const pointer of level) {
      const set = synset(pointer.pos, pointer.offset);
      found.push(...set.words);
      next.push(...set.pointers.filter((p) => p.symbol === '~'));
    }
    if (found.length >= MAX_RELATED) break;
    level = next;
  }
  return found;
}
