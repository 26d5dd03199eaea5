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

export function capWords(text: string, limit = MAX_TEXT_WORDS): string {
  const parts = text.split(/\s+/).filter(Boolean);
  return (parts.length > limit ? parts.slice(0, limit) : parts).join(' ');
}

export function validDate(value: unknown): number | null {
  const time = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : NaN;
  // Cameras without a set clock write 1970 or 0000: no information.
  return Number.isFinite(time) && time > Date.UTC(1980, 0, 1) ? time : null;
}
