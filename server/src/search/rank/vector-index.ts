import type { SearchKind } from '../../db/schema.js';
import type { SearchRepository, VectorRow } from '../db/search.repository.js';
import { asInt8 } from '../embed/quantize.js';

const KINDS: (SearchKind | null)[] = [null, 'photo', 'video', 'document', 'scan', 'audio', 'other'];
const MAX_OWNERS = 8;

export interface VectorFilter {
  kinds: SearchKind[];
  dateRange: { from: number; to: number } | null;
  /** Lower-cased words the place must contain, or true for any place. */
  place: string | true | null;
}

export interface VectorHit {
  itemId: string;
  itemType: 'file' | 'folder';
  score: number;
}

/** One owner's vectors of one model, as flat arrays so a scan touches contiguous memory. */
class OwnerVectors {
  ids: string[] = [];
  isFolder = new Uint8Array(64);
  kinds = new Uint8Array(64);
  dates = new Float64Array(64);
  places: (string | null)[] = [];
  norms = new Float32Array(64);
  vectors: Int8Array;
  position = new Map<string, number>();
  latest = 0;

  constructor(
    readonly modelId: string,
    readonly dims: number,
  ) {
    this.vectors = new Int8Array(64 * dims);
  }

  apply(row: VectorRow): void {
    this.latest = Math.max(this.latest, row.indexedAt);
    const usable = row.modelId === this.modelId && row.embedding !== null && row.embedding.length === this.dims;
    let i = this.position.get(row.itemId);
    if (i === undefined) {
      if (!usable) return;
      i = this.ids.length;
      this.grow(i + 1);
      this.ids.push(row.itemId);
      this.places.push(null);
      this.position.set(row.itemId, i);
    }
    this.isFolder[i] = row.itemType === 'folder' ? 1 : 0;
    this.kinds[i] = KINDS.indexOf(row.kind);
    this.dates[i] = row.contentDate ?? 0;
    this.places[i] = row.place?.toLowerCase() ?? null;
    if (!usable) {
      this.norms[i] = 0;
      return;
    }
    const vector = asInt8(row.embedding as Buffer);
    this.vectors.set(vector, i * this.dims);
    let sum = 0;
    for (const v of vector) sum += v * v;
    this.norms[i] = Math.sqrt(sum);
  }

  private grow(size: number): void {
    if (size <= this.norms.length) return;
    const capacity = Math.max(size, this.norms.length * 2);
    const widen = <T extends Uint8Array | Float32Array | Float64Array | Int8Array>(old: T, make: (n: number) => T, n: number): T => {
      const next = make(n);
      next.set(old as never);
      return next;
    };
    this.isFolder = widen(this.isFolder, (n) => new Uint8Array(n), capacity);
    this.kinds = widen(this.kinds, (n) => new Uint8Array(n), capacity);
    this.dates = widen(this.dates, (n) => new Float64Array(n), capacity);
    this.norms = widen(this.norms, (n) => new Float32Array(n), capacity);
    this.vectors = widen(this.vectors, (n) => new Int8Array(n), capacity * this.dims);
  }
}

/**
 * Exact nearest-neighbour search over an owner's vectors, cached in memory and brought up to date
 * from the database before every query (only rows indexed since the last look are read), so
 * several server processes stay correct without sharing anything but the database.
 */
export class VectorIndex {
  private readonly owners = new Map<string, OwnerVectors>();

  constructor(private readonly entries: SearchRepository) {}

  async search(ownerId: string, modelId: string, query: Float32Array, filter: VectorFilter, limit: number): Promise<VectorHit[]> {
    const data = await this.refresh(ownerId, modelId, query.length);
    const kindCodes = new Set(filter.kinds.map((k) => KINDS.indexOf(k)));
    const hits: VectorHit[] = [];
    let floor = -Infinity;
    const { dims, vectors } = data;
    for (let i = 0; i < data.ids.length; i++) {
      const norm = data.norms[i] as number;
      if (norm === 0) continue;
      const folder = data.isFolder[i] === 1;
      if (!folder && kindCodes.size > 0 && !kindCodes.has(data.kinds[i] as number)) continue;
      if (
        !folder &&
        filter.dateRange &&
        ((data.dates[i] as number) < filter.dateRange.from || (data.dates[i] as number) >= filter.dateRange.to)
      )
        continue;
      if (filter.place !== null) {
        const place = data.places[i];
        if (!place || (filter.place !== true && !place.includes(filter.place))) continue;
      }
      let dot = 0;
      const base = i * dims;
      for (let d = 0; d < dims; d++) dot += (vectors[base + d] as number) * (query[d] as number);
      const score = dot / norm;
      if (score <= floor) continue;
      hits.push({ itemId: data.ids[i] as string, itemType: folder ? 'folder' : 'file', score });
      if (hits.length >= limit * 4) {
        hits.sort((a, b) => b.score - a.score).length = limit;
        floor = (hits[limit - 1] as VectorHit).score;
      }
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  private async refresh(ownerId: string, modelId: string, dims: number): Promise<OwnerVectors> {
    let data = this.owners.get(ownerId);
    if (!data || data.modelId !== modelId || data.dims !== dims) data = new OwnerVectors(modelId, dims);
    for (const row of await this.entries.vectorsSince(ownerId, data.latest)) data.apply(row);
    // Least recently used last: re-inserting moves the owner to the end.
    this.owners.delete(ownerId);
    this.owners.set(ownerId, data);
    if (this.owners.size > MAX_OWNERS) this.owners.delete(this.owners.keys().next().value as string);
    return data;
  }
}
