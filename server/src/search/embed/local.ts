import type { ComputePool } from '../compute/pool.js';
import { LOCAL_MODEL_ID, type EmbeddingProvider } from './provider.js';

/** The bundled model, run on a compute pool. */
export class LocalEmbeddingProvider implements EmbeddingProvider {
  readonly modelId = LOCAL_MODEL_ID;

  constructor(private readonly pool: ComputePool) {}

  embed(texts: string[]): Promise<Float32Array[]> {
    return this.pool.run({ type: 'embed', texts });
  }
}
