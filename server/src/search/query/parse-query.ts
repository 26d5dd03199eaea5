import type { SearchKind } from '../../db/schema.js';
import { STOP_WORDS, words } from '../text/words.js';
import { parseDate, type DateRange } from './dates.js';

export interface ParsedQuery {
  /** Words left for retrieval, in query order. */
  terms: string[];
  /** Only items of these kinds (empty: any). */
  kinds: SearchKind[];
  /** Only PDFs ("pdf" names a format, not just a kind). */
  pdfOnly: boolean;
  dateRange: DateRange | null;
  /** Words naming a place ("in paris" → "paris"); whether they filter is decided against the index. */
  place: string | null;
  /** "in a city", "abroad": anything with a known place. */
  anyPlace: boolean;
  /** The query asks for folders only. */
  foldersOnly: boolean;
}

const PHOTO: SearchKind[] = ['photo'];
const VIDEO: SearchKind[] = ['video'];
const DOCUMENT: SearchKind[] = ['document', 'scan'];
const SCAN: SearchKind[] = ['scan'];
/** Words naming what kind of item is wanted; "file" names none. */
const KIND_WORDS: Record<string, SearchKind[]> = {
  ...Object.fromEntries(
    ['photo', 'photos', 'picture', 'pictures', 'pic', 'pics', 'image', 'images', 'selfie', 'selfies', 'snapshot', 'snapshots'].map((w) => [
      w,
      PHOTO,
    ]),
  ),
  ...Object.fromEntries(['video', 'videos', 'clip', 'clips', 'movie', 'movies', 'footage', 'film', 'recording'].map((w) => [w, VIDEO])),
  ...Object.fromEntries(['document', 'documents', 'doc', 'docs', 'pdf', 'pdfs', 'paperwork'].map((w) => [w, DOCUMENT])),
  ...Object.fromEntries(['scan', 'scans', 'scanned'].map((w) => [w, SCAN])),
  file: [],
  files: [],
};
const SCAN_WORDS = new Set(['scan', 'scans', 'scanned']);
const FOLDER_WORDS = new Set(['folder', 'folders', 'directory', 'directories', 'album', 'albums']);
const ANY_PLACE = /\b(?:in|at) (?:a|the|some) (?:city|town|place)\b|\babroad\b/;
const PLACE = /\b(?:in|at|near|from) ((?:(?!(?:the|a|my|last|this|past|since|and|with|of)\b)[\p{L}-]+ ?){1,3})/u;

/**
 * Turns a plain-language query into filters and retrieval words, e.g. "last month's invoice"
 * → a date range + "invoice"; "family vacation video" → videos + "family vacation".
 */
export function parseQuery(raw: string, now: number): ParsedQuery {
  let text = raw
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const date = parseDate(text, now);
  if (date) text = date.rest;

  const anyPlace = ANY_PLACE.test(text);
  if (anyPlace) text = text.replace(ANY_PLACE, ' ');
  const placeMatch = anyPlace ? null : text.match(PLACE);
  const placeWords = placeMatch ? words(placeMatch[1] as string).filter((w) => !KIND_WORDS[w] && !FOLDER_WORDS.has(w)) : [];

  const kinds = new Set<SearchKind>();
  let pdfOnly = false;
  let foldersOnly = false;
  const terms: string[] = [];
  for (const word of words(text)) {
    const kind = KIND_WORDS[word];
    if (kind) {
      for (const k of kind) kinds.add(k);
      if (word.startsWith('pdf')) pdfOnly = true;
    } else if (FOLDER_WORDS.has(word)) foldersOnly = true;
    else if (!STOP_WORDS.has(word)) terms.push(word);
  }
  // "scanned documents": the scans, not every document.
  if (kinds.has('scan') && kinds.has('document') && words(text).some((w) => SCAN_WORDS.has(w))) kinds.delete('document');
  return {
    terms,
    kinds: [...kinds],
    pdfOnly,
    dateRange: date?.range ?? null,
    place: placeWords.length > 0 ? placeWords.join(' ') : null,
    anyPlace,
    foldersOnly,
  };
}
