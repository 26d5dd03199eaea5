import { TooManyError } from '../domain/errors.js';
import type { FileRow } from '../db/repositories/file.repository.js';
import type { FolderRow } from '../db/repositories/folder.repository.js';
import type { Clock } from '../services/clock.js';
import type { SearchFilters, SearchRepository } from './db/search.repository.js';
import type { FallbackEmbeddingProvider } from './embed/fallback.js';
import { normalize } from './embed/quantize.js';
import { landmarkPlaces } from './language/landmarks.js';
import { relatedWords } from './language/related-words.js';
import { spellingCandidates } from './language/spelling.js';
import { parseQuery, type ParsedQuery } from './query/parse-query.js';
import { fuse } from './rank/fuse.js';
import type { PictureSearch } from './rank/picture-search.js';
import type { VectorFilter, VectorHit, VectorSearch } from './rank/vector-index.js';
import type { PeopleMatcher } from './people-match.js';

/** The search bar's AI answer shows at most this many folders and this many files. */
export const MAX_RESULTS = 5;
const CANDIDATES = 50;
/**
 * Cosine similarity below which a vector match is unrelated (measured on the evaluation set: the
 * right files score 0.35–0.7 with this model, unrelated ones mostly below 0.3).
 */
export const SIMILARITY_FLOOR = 0.3;
/** Vector matches this far below the best one are noise next to it. */
const RELATIVE_FLOOR = 0.2;
/**
 * When no word of the query is in any file, a photo or video matched by meaning alone must be at
 * least this close to count. Pictures are described in few words (what the detector saw, their
 * colours, place and date), so their vectors sit near every visual question: below this,
 * unrelated ones ("giraffe", "golf course") score as high as right ones, and the honest answer
 * is "nothing". Set on the tuning part of the real-photo evaluation.
 */
export const MEANING_ONLY_FLOOR = 0.5;
/** The same for documents, scans and folders matched by meaning alone: their text says more. */
export const MEANING_ONLY_TEXT_FLOOR = 0.4;
const SPARSELY_DESCRIBED = new Set(['photo', 'video']);
/**
 * Files found only through a word related to the query's ("car" for "automobile", "ferry" for
 * "boat") count for less than those holding the query's own words: a related word may be used
 * in another sense.
 */
const RELATED_WEIGHT = 0.5;
/** Related words looked for in one query, over all its words. */
const MAX_RELATED_TERMS = 80;
/** A named person's files a query ranks among (the newest, when someone is in more). */
const MAX_PERSON_FILES = 2000;

export interface SemanticResults {
  files: FileRow[];
  folders: FolderRow[];
}

/** Answers plain-language queries over one owner's indexed files and folders. */
/** Per account and server process. */
export const MAX_QUERIES_IN_FLIGHT = 3;
/** A query is a sentence; the embedder gets no more words than one. */
const MAX_EMBEDDED_TERMS = 32;

export class SemanticSearchService {
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly entries: SearchRepository,
    private readonly vectors: VectorSearch,
    private readonly embeddings: FallbackEmbeddingProvider,
    private readonly clock: Clock,
    private readonly enabled: boolean,
    /** The image–text model's retrieval; null: the bundled pipeline alone. */
    private readonly pictures: PictureSearch | null = null,
    private readonly people: PeopleMatcher | null = null,
  ) {}

  /**
   * One account's queries in flight are capped, so a flood from one account cannot queue everyone
   * else's queries behind it on the query thread.
   */
  async search(ownerId: string, query: string): Promise<SemanticResults> {
    return this.searchAs(ownerId, [ownerId], query).then((found) => found[0]!);
  }

  /**
   * One query of `callerId` over several accounts' indexes, one answer per account in order: their
   * own and those of accounts that shared items with them (the caller keeps only what is shared).
   * It counts once against the caller's queries in flight.
   */
  async searchAs(callerId: string, ownerIds: string[], query: string): Promise<SemanticResults[]> {
    if (!this.enabled) return ownerIds.map(() => ({ files: [], folders: [] }));
    const running = this.inFlight.get(callerId) ?? 0;
    if (running >= MAX_QUERIES_IN_FLIGHT) throw new TooManyError('RATE_LIMITED', 'Too many searches at once; try again in a moment', 1);
    this.inFlight.set(callerId, running + 1);
    try {
      const found: SemanticResults[] = [];
      // People are private: names are matched in the caller's own files only, never in what others shared.
      for (const ownerId of ownerIds) found.push(await this.answer(ownerId, query, ownerId === callerId));
      return found;
    } finally {
      const left = (this.inFlight.get(callerId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(callerId, left);
      else this.inFlight.delete(callerId);
    }
  }

  private async answer(ownerId: string, query: string, withPeople: boolean): Promise<SemanticResults> {
    const read = parseQuery(query, this.clock.now());
    // Names are matched as typed, before any word is taken for a misspelling.
    const person = withPeople && this.people ? await this.people.match(ownerId, read.terms) : null;
    if (person?.fileIds.length === 0) return { files: [], folders: [] };
    const words = person ? withoutNames(read.terms, person.terms) : read.terms;
    const terms = await this.spellChecked(ownerId, words);
    // A landmark is looked for where it stands, as well as by its own name.
    const parsed = { ...read, terms: [...new Set([...terms, ...landmarkPlaces(words)])] };
    const place = (await this.placeFilter(ownerId, parsed)) ? parsed.place : null;
    const within = person ? person.fileIds.slice(0, MAX_PERSON_FILES) : null;
    const filters: SearchFilters = { kinds: parsed.kinds, dateRange: parsed.dateRange, place, anyPlace: parsed.anyPlace, within };
    const ranked =
      parsed.terms.length > 0
        ? await this.retrieve(ownerId, parsed, filters, words)
        : within && !isFiltered(filters)
          ? within.map((itemId) => ({ itemId, itemType: 'file' }))
          : await this.filtersOnly(ownerId, filters);
    return this.load(ownerId, ranked, parsed);
  }

  /**
   * Each word that is no English word and in none of the owner's files is taken for a misspelling
   * of the likeliest word that is in them ("pasport" → passport); otherwise it stays as typed.
   */
  private async spellChecked(ownerId: string, terms: string[]): Promise<string[]> {
    const checked: string[] = [];
    for (const term of terms) {
      const candidates = spellingCandidates(term);
      let fixed = term;
      if (candidates.length > 0 && !(await this.entries.hasTerm(ownerId, term))) {
        for (const candidate of candidates) {
          if (await this.entries.hasTerm(ownerId, candidate)) {
            fixed = candidate;
            break;
          }
        }
      }
      checked.push(fixed);
    }
    return checked;
  }

  /**
   * A place filters photos and videos ("photos in Paris") or a query that is only a place, and only
   * if the owner has anything there; otherwise ("hotel booking in Rome") its words just rank.
   */
  private async placeFilter(ownerId: string, parsed: ParsedQuery): Promise<boolean> {
    if (!parsed.place) return false;
    const placeWords = new Set(parsed.place.split(' '));
    const media = parsed.kinds.length > 0 && parsed.kinds.every((k) => k === 'photo' || k === 'video');
    const onlyPlace = parsed.terms.every((t) => placeWords.has(t));
    return (media || onlyPlace) && this.entries.hasPlace(ownerId, parsed.place);
  }

  /** `words`: the query's own words (not spell-corrected), as the image–text model reads them. */
  private async retrieve(ownerId: string, parsed: ParsedQuery, filters: SearchFilters, words: string[]) {
    // The query's embeddings are computed on the query thread while the word search runs here.
    const vector = this.vectorHits(ownerId, parsed, filters);
    const pictures = this.pictures?.hits(ownerId, words, vectorFilter(filters), CANDIDATES) ?? Promise.resolve([]);
    const found = Promise.all([
      this.entries.keyword(ownerId, parsed.terms, filters, CANDIDATES),
      this.entries.keyword(ownerId, this.relatedTerms(parsed.terms), filters, CANDIDATES),
    ]);
    const [keyword, related] = await found.catch(async (err: unknown) => {
      await Promise.all([vector.catch(() => undefined), pictures.catch(() => undefined)]);
      throw err;
    });
    const [meaningHits, pictured] = await Promise.all([vector, pictures]);
    // A related word is only a hint: it counts where the meaning agrees (the vector match is at
    // least plausible), and then lets a photo or document through the meaning-only floor.
    const plausible = new Set(meaningHits.map((h) => h.itemId));
    const confirmed = related.filter((r) => plausible.has(r.itemId));
    const hinted = new Set(confirmed.map((r) => r.itemId));
    const meaning =
      keyword.length > 0
        ? meaningHits
        : meaningHits.filter(
            (h) => hinted.has(h.itemId) || h.score >= (SPARSELY_DESCRIBED.has(h.kind ?? '') ? MEANING_ONLY_FLOOR : MEANING_ONLY_TEXT_FLOOR),
          );
    const fused = fuse([
      { items: keyword, weight: 1 },
      { items: confirmed, weight: RELATED_WEIGHT },
      { items: meaning, weight: 1 },
      // What the photos and videos show, as the image–text model sees it (calibrated in picture-search.ts).
      { items: pictured, weight: 1 },
    ]);
    return fused.map((f) => ({ itemId: f.itemId, itemType: f.itemType }));
  }

  /** Synonyms and kinds of the query's words that are not among them. */
  private relatedTerms(terms: string[]): string[] {
    const own = new Set(terms);
    const related = new Set(terms.flatMap((t) => relatedWords(t)).filter((w) => !own.has(w)));
    return [...related].slice(0, MAX_RELATED_TERMS);
  }

  private async vectorHits(ownerId: string, parsed: ParsedQuery, filters: SearchFilters): Promise<VectorHit[]> {
    const { modelId, vectors } = await this.embeddings.embed([parsed.terms.slice(0, MAX_EMBEDDED_TERMS).join(' ')], 'query');
    const hits = await this.vectors.search(ownerId, modelId, normalize(vectors[0] as Float32Array), vectorFilter(filters), CANDIDATES);
    const best = hits[0]?.score ?? 0;
    return hits.filter((h) => h.score >= SIMILARITY_FLOOR && h.score >= best - RELATIVE_FLOOR);
  }

  /** No words left ("videos from last summer"): the newest items within the filters, if there are any. */
  private async filtersOnly(ownerId: string, filters: SearchFilters) {
    return isFiltered(filters) ? this.entries.recent(ownerId, filters, CANDIDATES) : [];
  }

  /** The live, non-trashed rows of the best candidates, in rank order. */
  private async load(ownerId: string, ranked: { itemId: string; itemType: string }[], parsed: ParsedQuery): Promise<SemanticResults> {
    const fileIds = parsed.foldersOnly ? [] : ranked.filter((r) => r.itemType === 'file').map((r) => r.itemId);
    const folderIds = ranked.filter((r) => r.itemType === 'folder').map((r) => r.itemId);
    const [files, folders] = await Promise.all([
      this.entries.liveFiles(ownerId, fileIds.slice(0, CANDIDATES)),
      this.entries.liveFolders(ownerId, folderIds.slice(0, CANDIDATES)),
    ]);
    const order = (ids: string[]) => (a: { id: string }, b: { id: string }) => ids.indexOf(a.id) - ids.indexOf(b.id);
    return {
      files: files
        .filter((f) => !parsed.pdfOnly || f.contentType === 'application/pdf')
        .sort(order(fileIds))
        .slice(0, MAX_RESULTS),
      folders: folders.sort(order(folderIds)).slice(0, MAX_RESULTS),
    };
  }
}

function isFiltered(filters: SearchFilters): boolean {
  return filters.kinds.length > 0 || filters.dateRange !== null || filters.place !== null || filters.anyPlace;
}

function vectorFilter(filters: SearchFilters): VectorFilter {
  return {
    kinds: filters.kinds,
    dateRange: filters.dateRange,
    place: filters.place ?? (filters.anyPlace ? true : null),
    within: filters.within ? new Set(filters.within) : null,
  };
}

/** The query's terms without those a person's name used up (each once). */
function withoutNames(terms: string[], names: string[]): string[] {
  const left = [...names];
  return terms.filter((t) => {
    const at = left.indexOf(t);
    if (at === -1) return true;
    left.splice(at, 1);
    return false;
  });
}
