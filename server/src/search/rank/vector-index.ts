import type { SearchKind } from '../../db/schema.js';
import type { SearchRepository, VectorField } from '../db/search.repository.js';
import { KINDS, OwnerVectors, sketch } from './owner-vectors.js';

const MAX_OWNERS = 8;
/**
 * Rows are re-read this far back from the newest one seen: another process may commit a row
 * stamped slightly earlier than one already read. Re-reading a row that did not change is skipped.
 */
const REREAD_MS = 5_000;
/** Up to this many vectors every one is scored exactly; beyond, a sign-bit pass picks candidates. */
const EXACT_LIMIT = 20_000;
/** Candidates kept by the sign-bit pass: generous, since its ranking is only approximate. */
const SHORTLIST = (n: number) => Math.max(2_000, Math.ceil(n / 40));

/** Bits set in each 16-bit value. */
const POPCOUNT = Uint8Array.from({ length: 65536 }, (_, v) => {
  let c = 0;
  for (let x = v; x; x &= x - 1) c++;
  return c;
});

export interface VectorFilter {
  kinds: SearchKind[];
  dateRange: { from: number; to: number } | null;
  /** Lower-cased words the place must contain, or true for any place. */
  place: string | true | null;
  /** Only these items (the files showing a person the query names). */
  within?: ReadonlySet<string> | null;
}

export interface VectorHit {
  itemId: string;
  itemType: 'file' | 'folder';
  /** The file's kind; null for a folder. */
  kind: SearchKind | null;
  score: number;
  /** The best score among the contrast vectors, when some were given. */
  contrast?: number;
}

/** Nearest neighbours of a query vector among one owner's vectors of one model. */
export interface VectorSearch {
  /** `contrast`: vectors each hit is also scored against (its best score among them is `hit.contrast`). */
  search(
    ownerId: string,
    modelId: string,
    query: Float32Array,
    filter: VectorFilter,
    limit: number,
    contrast?: Float32Array[],
  ): Promise<VectorHit[]>;
}

/**
 * Nearest-neighbour search over an owner's vectors (of the entries' words, or of their pictures),
 * cached in memory and brought up to date from the database before every query (only rows indexed
 * since the last look are read), so several server processes stay correct without sharing
 * anything but the database.
 */
export class VectorIndex implements VectorSearch {
  private readonly owners = new Map<string, OwnerVectors>();

  constructor(
    private readonly entries: SearchRepository,
    private readonly field: VectorField = 'text',
  ) {}

  async search(
    ownerId: string,
    modelId: string,
    query: Float32Array,
    filter: VectorFilter,
    limit: number,
    contrast: Float32Array[] = [],
  ): Promise<VectorHit[]> {
    const data = await this.refresh(ownerId, modelId, query.length);
    const eligible = this.eligible(data, filter);
    const candidates = data.size > EXACT_LIMIT ? shortlist(data, query, eligible, SHORTLIST(data.size)) : eligible;
    const hits: (VectorHit & { at: number })[] = [];
    for (const i of candidates) {
      hits.push({
        itemId: data.ids[i] as string,
        itemType: data.isFolder[i] === 1 ? 'folder' : 'file',
        kind: KINDS[data.kinds[i] as number] ?? null,
        score: cosine(data, i, query),
        at: i,
      });
    }
    const best = hits.sort((a, b) => b.score - a.score).slice(0, limit);
    return best.map(({ at, ...hit }) =>
      contrast.length > 0 ? { ...hit, contrast: Math.max(...contrast.map((c) => cosine(data, at, c))) } : hit,
    );
  }

  private eligible(data: OwnerVectors, filter: VectorFilter): Int32Array {
    const kindCodes = new Set(filter.kinds.map((k) => KINDS.indexOf(k)));
    const out = new Int32Array(data.size);
    let n = 0;
    for (let i = 0; i < data.size; i++) {
      if (data.norms[i] === 0) continue;
      if (data.isFolder[i] !== 1) {
        if (kindCodes.size > 0 && !kindCodes.has(data.kinds[i] as number)) continue;
        const date = data.dates[i] as number;
        if (filter.dateRange && (date < filter.dateRange.from || date >= filter.dateRange.to)) continue;
      }
      if (filter.within && !filter.within.has(data.ids[i] as string)) continue;
      if (filter.place !== null) {
        const place = data.places[i];
        if (!place || (filter.place !== true && !place.includes(filter.place))) continue;
      }
      out[n++] = i;
    }
    return out.subarray(0, n);
  }

  private async refresh(ownerId: string, modelId: string, dims: number): Promise<OwnerVectors> {
    let data = this.owners.get(ownerId);
    if (!data || data.modelId !== modelId || data.dims !== dims) data = new OwnerVectors(modelId, dims);
    for (const row of await this.entries.vectorsSince(ownerId, data.latest > 0 ? data.latest - REREAD_MS : 0, this.field)) data.apply(row);
    // Least recently used last: re-inserting moves the owner to the end.
    this.owners.delete(ownerId);
    this.owners.set(ownerId, data);
    if (this.owners.size > MAX_OWNERS) this.owners.delete(this.owners.keys().next().value as string);
    return data;
  }
}

/** Cosine similarity of stored vector `i` with a unit query vector. */
function cosine(data: OwnerVectors, i: number, query: Float32Array): number {
  const { dims, vectors } = data;
  const base = i * dims;
  let dot = 0;
  for (let d = 0; d < dims; d++) dot += (vectors[base + d] as number) * (query[d] as number);
  return dot / (data.norms[i] as number);
}

/**
 * The `keep` candidates whose sign bits differ least from the query's (Hamming distance over
 * the sketches: ~30x less work than exact scores), found with a histogram instead of a sort.
 */
function shortlist(data: OwnerVectors, query: Float32Array, eligible: Int32Array, keep: number): Int32Array {
  if (eligible.length <= keep) return eligible;
  const { words, sketches } = data;
  const q = sketch(query, words);
  const distances = new Uint16Array(eligible.length);
  const histogram = new Uint32Array(words * 32 + 1);
  for (let n = 0; n < eligible.length; n++) {
    const base = (eligible[n] as number) * words;
    let distance = 0;
    for (let w = 0; w < words; w++) {
      const x = ((sketches[base + w] as number) ^ (q[w] as number)) >>> 0;
      distance += (POPCOUNT[x & 0xffff] as number) + (POPCOUNT[x >>> 16] as number);
    }
    distances[n] = distance;
    histogram[distance] = (histogram[distance] as number) + 1;
  }
  let threshold = 0;
  for (let seen = 0; threshold < histogram.length && seen < keep; threshold++) seen += histogram[threshold] as number;
  const out = new Int32Array(eligible.length);
  let m = 0;
  for (let n = 0; n < eligible.length; n++) if ((distances[n] as number) < threshold) out[m++] = eligible[n] as number;
  return out.subarray(0, m);
}
