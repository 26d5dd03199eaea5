import type { SearchKind } from '../../db/schema.js';

/** What reading a file's bytes found. */
export interface Analysis {
  kind: SearchKind;
  /** Searchable text: document text, OCR text, metadata words. */
  text: string;
  /** When the content was made, if the file says. */
  contentDate: number | null;
  /** Place names from GPS: "nearest, largest nearby, country". */
  place: string | null;
}

/** Documents are read up to this many words ("the first few thousand"). */
export const MAX_TEXT_WORDS = 3000;

/**
 * Text gathered from a document is kept up to this many characters. Past the word cap it is not
 * needed at all; this bounds what text made of little but spaces can cost.
 */
export const MAX_TEXT_CHARS = 2 * 1024 * 1024;

/** The first `limit` words, single-spaced. Scans only as far as those words, never the whole text. */
export function capWords(text: string, limit = MAX_TEXT_WORDS): string {
  const words: string[] = [];
  const word = /\S+/g;
  for (let match = word.exec(text); match && words.length < limit; match = word.exec(text)) words.push(match[0]);
  return words.join(' ');
}

/** Pieces held before they are joined, so a document of a million tiny runs is a few strings, not a million. */
const PIECES_PER_JOIN = 1024;

/**
 * Text taken piece by piece from a document being read, so the reader can stop as soon as it holds
 * enough: once more than `wordLimit` words have begun (the last kept word is then whole even if a
 * piece ended inside it), or `charLimit` characters are held. Whitespace after whitespace is
 * dropped: words are what is kept, and a run of empty paragraphs must not fill the memory.
 */
export class TextCollector {
  private readonly joined: string[] = [];
  private pieces: string[] = [];
  private chars = 0;
  private words = 0;
  private inWord = false;

  constructor(
    private readonly wordLimit = MAX_TEXT_WORDS,
    private readonly charLimit = MAX_TEXT_CHARS,
  ) {}

  get isFull(): boolean {
    return this.words > this.wordLimit || this.chars >= this.charLimit;
  }

  add(text: string): void {
    if (this.isFull || text.length === 0) return;
    if (!this.inWord && !/\S/.test(text)) return;
    const piece = text.length > this.charLimit - this.chars ? text.slice(0, this.charLimit - this.chars) : text;
    const word = /\S+/g;
    for (let match = word.exec(piece); match && this.words <= this.wordLimit; match = word.exec(piece)) {
      // A word running on from the previous piece was counted there.
      if (!(match.index === 0 && this.inWord)) this.words++;
    }
    this.inWord = /\S$/.test(piece);
    this.pieces.push(piece);
    this.chars += piece.length;
    if (this.pieces.length >= PIECES_PER_JOIN) {
      this.joined.push(this.pieces.join(''));
      this.pieces = [];
    }
  }

  get text(): string {
    return this.joined.join('') + this.pieces.join('');
  }
}

export function validDate(value: unknown): number | null {
  const time = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : NaN;
  // Cameras without a set clock write 1970 or 0000: no information.
  return Number.isFinite(time) && time > Date.UTC(1980, 0, 1) ? time : null;
}
