/**
 * Vectors are stored as int8 (a quarter of float32's size, ~1 % cosine error): each vector is
 * scaled so its largest component becomes ±127. Scores divide by the stored vector's norm, so the
 * per-vector scale never needs storing.
 */
export function quantize(vector: Float32Array): Buffer {
  let max = 0;
  for (const v of vector) max = Math.max(max, Math.abs(v));
  const out = Buffer.alloc(vector.length);
  const scale = max > 0 ? 127 / max : 0;
  for (let i = 0; i < vector.length; i++) out.writeInt8(Math.round((vector[i] as number) * scale), i);
  return out;
}

export function asInt8(blob: Uint8Array): Int8Array {
  return new Int8Array(blob.buffer, blob.byteOffset, blob.byteLength);
}

/** The unit vector in the direction of `vector` (a zero vector stays zero). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum) || 1;
  return vector.map((v) => v / norm);
}
