import { clipImageEmbeddings } from '../embed/clip-model.js';
import { decodeForClip, type RgbImage } from '../embed/clip-image.js';

/**
 * A picture's image–text embedding: null when none of its pictures decoded. `error` says the
 * model itself failed (it did not load, or rejected decoded pixels): the caller stops using it.
 */
export interface PictureVector {
  vector: Float32Array | null;
  error?: string;
}

/**
 * One unit vector for one or more pictures of the same thing (a photo, or frames sampled from a
 * video): the mean of their embeddings, made unit again, so a video is found by what most of it shows.
 * Runs in a compute thread.
 */
export async function embedPictures(dir: string, pictures: Uint8Array[]): Promise<PictureVector> {
  const decoded: RgbImage[] = [];
  for (const bytes of pictures) {
    try {
      decoded.push(await decodeForClip(bytes));
    } catch {
      // Pixels that do not decode add nothing; the others may.
    }
  }
  if (decoded.length === 0) return { vector: null };
  let vectors: Float32Array[];
  try {
    vectors = await clipImageEmbeddings(dir, decoded);
  } catch (err) {
    return { vector: null, error: err instanceof Error ? err.message : String(err) };
  }
  return { vector: meanDirection(vectors) };
}

/** The normalised mean of unit vectors (a single vector is returned as it is). */
export function meanDirection(vectors: Float32Array[]): Float32Array | null {
  const first = vectors[0];
  if (!first) return null;
  if (vectors.length === 1) return first;
  const sum = new Float32Array(first.length);
  for (const v of vectors) for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) + (v[d] as number);
  let norm = 0;
  for (const x of sum) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm === 0) return null;
  for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] as number) / norm;
  return sum;
}
