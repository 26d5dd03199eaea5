/** Universal Sentence Encoder lite (512 dimensions), shipped with an npm package: nothing to download. */
export const LOCAL_MODEL_ID = 'use-lite-512';

/** Turns texts into vectors. One provider's vectors are only ever compared with its own. */
export interface EmbeddingProvider {
  /** Stored with each vector; a change of model re-embeds everything in the background. */
  readonly modelId: string;
  embed(texts: string[], purpose: 'document' | 'query'): Promise<Float32Array[]>;
}
