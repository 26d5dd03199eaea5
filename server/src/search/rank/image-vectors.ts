import type { PgVectorIndex } from '../db/pgvector.js';
import type { VectorFilter, VectorHit, VectorIndex, VectorSearch } from './vector-index.js';

/** The pictures' vectors: in PostgreSQL when it has pgvector, else in the in-memory index. */
export class ImageVectors implements VectorSearch {
  constructor(
    private readonly memory: VectorIndex,
    private readonly pgvector: PgVectorIndex | null,
  ) {}

  async search(
    ownerId: string,
    modelId: string,
    query: Float32Array,
    filter: VectorFilter,
    limit: number,
    contrast?: Float32Array[],
  ): Promise<VectorHit[]> {
    const index = this.pgvector && (await this.pgvector.available()) ? this.pgvector : this.memory;
    return index.search(ownerId, modelId, query, filter, limit, contrast);
  }
}
