import type { PeopleMatcher } from '../search/people-match.js';
import type { PeopleRepository } from './people.repository.js';

/** Files a question naming people can narrow to; more would be a listing, not a search. */
const MAX_FILES = 1000;

/** Lower case without accents, as search terms are compared. */
function fold(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

function wordsOf(name: string): string[] {
  return fold(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** Where `words` appear one after another in `terms` among the positions not used yet, or -1. */
function findRun(terms: string[], used: boolean[], words: string[]): number {
  for (let at = 0; at + words.length <= terms.length; at++) {
    if (words.every((w, i) => !used[at + i] && terms[at + i] === w)) return at;
  }
  return -1;
}

/**
 * The account's own named, visible people in a query: longer names first, so "anna smith" is Anna
 * Smith before it is Anna. People of one name count as one (a person split in two before merging).
 */
export class PeopleNameMatcher implements PeopleMatcher {
  constructor(private readonly repo: PeopleRepository) {}

  async match(ownerId: string, terms: string[]): Promise<{ terms: string[]; fileIds: string[] } | null> {
    if (terms.length === 0) return null;
    const people = await this.repo.namedPeople(ownerId);
    if (people.length === 0) return null;
    const byName = new Map<string, { words: string[]; ids: string[] }>();
    for (const person of people) {
      const words = wordsOf(person.name);
      if (words.length === 0) continue;
      const key = words.join(' ');
      const entry = byName.get(key);
      if (entry) entry.ids.push(person.id);
      else byName.set(key, { words, ids: [person.id] });
    }
    const folded = terms.map(fold);
    const used = folded.map(() => false);
    const groups: string[][] = [];
    for (const { words, ids } of [...byName.values()].sort((a, b) => b.words.length - a.words.length)) {
      const at = findRun(folded, used, words);
      if (at === -1) continue;
      for (let i = at; i < at + words.length; i++) used[i] = true;
      groups.push(ids);
    }
    if (groups.length === 0) return null;
    return { terms: terms.filter((_, i) => used[i]), fileIds: await this.repo.filesShowingAll(ownerId, groups, MAX_FILES) };
  }
}
