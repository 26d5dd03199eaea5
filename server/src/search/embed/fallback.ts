import type { Logger } from '../../logger.js';
import type { EmbeddingProvider } from './provider.js';

/**
 * The configured remote model, with the local one standing in when it fails. Vectors keep the
 * id of the model that made them, so the stand-in's vectors are replaced by the backfill once
 * the remote answers again, and a query is only ever compared with vectors of its own model.
 */
export class FallbackEmbeddingProvider {
  constructor(
    readonly primary: EmbeddingProvider,
    readonly local: EmbeddingProvider,
    private readonly log: Logger,
  ) {}

  /** The model every vector should eventually come from. */
  get preferredModelId(): string {
    return this.primary.modelId;
  }

  async embed(texts: string[], purpose: 'document' | 'query'): Promise<{ modelId: string; vectors: Float32Array[] }> {
    if (this.primary !== this.local) {
      try {
        return { modelId: this.primary.modelId, vectors: await this.primary.embed(texts, purpose) };
      } catch (err) {
        this.log.warn({ err }, 'embeddings endpoint failed; using the local model');
      }
    }
    return { modelId: this.local.modelId, vectors: await this.local.embed(texts, purpose) };
  }
}
