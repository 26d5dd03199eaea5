import { TooManyError } from '../domain/errors.js';
import type { FileRow } from '../db/repositories/file.repository.js';
import type { FolderRow } from '../db/repositories/folder.repository.js';
import type { Clock } from '../services/clock.js';
import type { SearchFilters, SearchRepository } from './db/search.repository.js';
import type { FallbackEmbeddingProvider } from './embed/fallback.js';
import { normalize } from './embed/quantize.js';
import { parseQuery, type ParsedQuery } from './query/parse-query.js';
import { fuse } from './rank/fuse.js';
import type { VectorHit, VectorIndex } from './rank/vector-index.js';

/** SPEC §2: the AI answer shows at most this many of each. */
export const MAX_RESULTS = 5;
const CANDIDATES = 50;
/**
 * Cosine similarity below which a vector match is unrelated (measured on the evaluation set: the
 * right files score 0.35–0.7 with this model, unrelated ones mostly below 0.3).
 */
export const SIMILARITY_FLOOR = 0.3;
/** Vector matches this far below the best one are noise next to it. */
const RELATIVE_FLOOR = 0.2;

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
    private readonly vectors: VectorIndex,
    private readonly embeddings: FallbackEmbeddingProvider,
    private readonly clock: Clock,
    private readonly enabled: boolean,
  ) {}

  /**
   * One account's queries in flight are capped, so a flood from one account cannot queue everyone
   * else's queries behind it on the query thread.
   */
  async search(ownerId: string, query: string): Promise<SemanticResults> {
    if (!this.enabled) return { files: [], folders: [] };
    const running = this.inFlight.get(ownerId) ?? 0;
    if (running >= MAX_QUERIES_IN_FLIGHT) throw new TooManyError('RATE_LIMITED', 'Too many searches at once; try again in a moment', 1);
    this.inFlight.set(ownerId, running + 1);
    try {
      return await this.answer(ownerId, query);
    } finally {
      const left = (this.inFlight.get(ownerId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(ownerId, left);
      else this.inFlight.delete(ownerId);
    }
  }

  private async answer(ownerId: string, query: string): Promise<SemanticResults> {
    const parsed = parseQuery(query, this.clock.now());
    const place = (await this.placeFilter(ownerId, parsed)) ? parsed.place : null;
    const filters: SearchFilters = { kinds: parsed.kinds, dateRange: parsed.dateRange, place, anyPlace: parsed.anyPlace };
    const ranked = parsed.terms.length > 0 ? await this.retrieve(ownerId, parsed, filters) : await this.filtersOnly(ownerId, filters);
    return this.load(ownerId, ranked, parsed);
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

  private async retrieve(ownerId: string, parsed: ParsedQuery, filters: SearchFilters) {
    // The query's embedding is computed on a compute thread while the word search runs here.
    const vector = this.vectorHits(ownerId, parsed, filters);
    const keyword = await this.entries.keyword(ownerId, parsed.terms, filters, CANDIDATES).catch(async (err: unknown) => {
      await vector.catch(() => undefined);
      throw err;
    });
    const fused = fuse([
      { items: keyword, weight: 1 },
      { items: await vector, weight: 1 },
    ]);
    return fused.map((f) => ({ itemId: f.itemId, itemType: f.itemType }));
  }

  private async vectorHits(ownerId: string, parsed: ParsedQuery, filters: SearchFilters): Promise<VectorHit[]> {
    const { modelId, vectors } = await this.embeddings.embed([parsed.terms.slice(0, MAX_EMBEDDED_TERMS).join(' ')], 'query');
    const hits = await this.vectors.search(
      ownerId,
      modelId,
      normalize(vectors[0] as Float32Array),
      { kinds: filters.kinds, dateRange: filters.dateRange, place: filters.place ?? (filters.anyPlace ? true : null) },
      CANDIDATES,
    );
    const best = hits[0]?.score ?? 0;
    return hits.filter((h) => h.score >= SIMILARITY_FLOOR && h.score >= best - RELATIVE_FLOOR);
  }

  /** No words left ("videos from last summer"): the newest items within the filters, if there are any. */
  private async filtersOnly(ownerId: string, filters: SearchFilters) {
    const filtered = filters.kinds.length > 0 || filters.dateRange !== null || filters.place !== null || filters.anyPlace;
    return filtered ? this.entries.recent(ownerId, filters, CANDIDATES) : [];
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
