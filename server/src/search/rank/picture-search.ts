import { ComputeTimeoutError, type ComputePool } from '../compute/pool.js';
import type { PictureModel } from '../embed/picture-model.js';
import type { VectorFilter, VectorHit, VectorSearch } from './vector-index.js';

/**
 * Prompts that describe no picture in particular. CLIP's scores are small and differ from model to
 * model (a right picture scores ~0.3 with ViT-B/32, an unrelated one ~0.2), so no fixed floor
 * separates them; a picture that matches the query better than it matches these is about the query.
 */
export const NEUTRAL_PROMPTS = ['a photo', 'an image', 'a picture of something'];
/**
 * How much better than its best neutral prompt a picture must match the query. About a tenth of
 * the spread between right and unrelated pictures of ViT-B/32-class models: below it, a picture
 * matches "giraffe" only as much as it matches "a photo".
 */
export const PICTURE_MARGIN = 0.02;
/** Pictures this far below the best one are noise next to it (on CLIP's narrow scale of scores). */
export const PICTURE_RELATIVE_FLOOR = 0.05;
/** A query is a sentence; CLIP's text encoder reads 77 tokens at most. */
const MAX_PROMPT_WORDS = 24;

/** How the model is asked about a query: CLIP was trained on captions, not keywords. */
export function promptFor(terms: string[]): string {
  return `a photo of ${terms.slice(0, MAX_PROMPT_WORDS).join(' ')}`;
}

/**
 * Photos and videos whose picture matches a query's meaning, through the image–text model: the
 * query's text embedding (computed on the query thread) against the pictures' embeddings.
 */
export class PictureSearch {
  private neutral: { modelId: string; vectors: Float32Array[] } | null = null;

  constructor(
    private readonly model: PictureModel,
    private readonly vectors: VectorSearch,
    private readonly pool: ComputePool,
  ) {}

  /** The calibrated hits, best first; none when the model is not ready or fails. */
  async hits(ownerId: string, terms: string[], filter: VectorFilter, limit: number): Promise<VectorHit[]> {
    const model = this.model.ready();
    if (!model || terms.length === 0) return [];
    let query: Float32Array;
    let neutral: Float32Array[];
    try {
      // The neutral prompts' embeddings are the same for every query of a model: computed once.
      const known = this.neutral?.modelId === model.id ? this.neutral.vectors : null;
      const texts = [promptFor(terms), ...(known ? [] : NEUTRAL_PROMPTS)];
      [query, ...neutral] = (await this.pool.run({ type: 'clip-text', dir: model.dir, texts })) as [Float32Array, ...Float32Array[]];
      if (known) neutral = known;
      else this.neutral = { modelId: model.id, vectors: neutral };
    } catch (err) {
      // A busy thread is no fault of the model's: this query answers without it.
      if (err instanceof ComputeTimeoutError) return [];
      this.model.failed(model.dir, err instanceof Error ? err.message : String(err));
      return [];
    }
    return aboutTheQuery(await this.vectors.search(ownerId, model.id, query, filter, limit, neutral));
  }
}

/**
 * The hits (best first, each with its best neutral prompt's score as `contrast`) that match the
 * query clearly better than they match a neutral prompt, and are near the best of those.
 */
export function aboutTheQuery(hits: VectorHit[]): VectorHit[] {
  const about = hits.filter((h) => h.score - (h.contrast ?? 0) >= PICTURE_MARGIN);
  const best = about[0]?.score ?? 0;
  return about.filter((h) => h.score >= best - PICTURE_RELATIVE_FLOOR);
}
