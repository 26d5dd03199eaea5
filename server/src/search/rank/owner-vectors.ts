import type { SearchKind } from '../../db/schema.js';
import type { VectorRow } from '../db/search.repository.js';
import { asInt8 } from '../embed/quantize.js';

export const KINDS: (SearchKind | null)[] = [null, 'photo', 'video', 'document', 'scan', 'audio', 'other'];

/**
 * One owner's vectors of one model as flat typed arrays (a scan touches contiguous memory),
 * plus a sign-bit sketch of each vector (one bit per dimension) for a cheap first pass.
 */
export class OwnerVectors {
  ids: string[] = [];
  isFolder = new Uint8Array(64);
  kinds = new Uint8Array(64);
  dates = new Float64Array(64);
  places: (string | null)[] = [];
  norms = new Float32Array(64);
  stamps = new Float64Array(64);
  vectors: Int8Array;
  sketches: Uint32Array;
  readonly words: number;
  position = new Map<string, number>();
  latest = 0;

  constructor(
    readonly modelId: string,
    readonly dims: number,
  ) {
    this.words = Math.ceil(dims / 32);
    this.vectors = new Int8Array(64 * dims);
    this.sketches = new Uint32Array(64 * this.words);
  }

  get size(): number {
    return this.ids.length;
  }

  apply(row: VectorRow): void {
    this.latest = Math.max(this.latest, row.indexedAt);
    const usable = row.modelId === this.modelId && row.embedding !== null && row.embedding.length === this.dims;
    let i = this.position.get(row.itemId);
    if (i !== undefined && this.stamps[i] === row.indexedAt) return;
    if (i === undefined) {
      if (!usable) return;
      i = this.ids.length;
      this.grow(i + 1);
      this.ids.push(row.itemId);
      this.places.push(null);
      this.position.set(row.itemId, i);
    }
    this.stamps[i] = row.indexedAt;
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
    this.sketches.set(sketch(vector, this.words), i * this.words);
    let sum = 0;
    for (const v of vector) sum += v * v;
    this.norms[i] = Math.sqrt(sum);
  }

  private grow(size: number): void {
    if (size <= this.norms.length) return;
    const capacity = Math.max(size, this.norms.length * 2);
    const widen = <T extends Uint8Array | Uint32Array | Float32Array | Float64Array | Int8Array>(
      old: T,
      make: (n: number) => T,
      n: number,
    ): T => {
      const next = make(n);
      next.set(old as never);
      return next;
    };
    this.isFolder = widen(this.isFolder, (n) => new Uint8Array(n), capacity);
    this.kinds = widen(this.kinds, (n) => new Uint8Array(n), capacity);
    this.dates = widen(this.dates, (n) => new Float64Array(n), capacity);
    this.norms = widen(this.norms, (n) => new Float32Array(n), capacity);
    this.stamps = widen(this.stamps, (n) => new Float64Array(n), capacity);
    this.vectors = widen(this.vectors, (n) => new Int8Array(n), capacity * this.dims);
    this.sketches = widen(this.sketches, (n) => new Uint32Array(n), capacity * this.words);
  }
}

/** One bit per dimension: set where the component is positive. */
export function sketch(vector: ArrayLike<number>, words: number): Uint32Array {
  const bits = new Uint32Array(words);
  for (let d = 0; d < vector.length; d++) if ((vector[d] as number) > 0) bits[d >>> 5] = (bits[d >>> 5] as number) | (1 << (d & 31));
  return bits;
}
