import { setPriority } from 'node:os';
import { Piscina } from 'piscina';
import { analyze, embedPicture } from '../extract/analyze.js';
import { embedLocally } from '../embed/local-model.js';
import { clipTextEmbeddings } from '../embed/clip-model.js';
import type { ComputeTask } from './tasks.js';

// Background work yields the CPU to requests: on Linux a thread's nice value is its own (and
// threads it starts, such as the OCR engine's, inherit it), so this lowers only this thread.
try {
  setPriority(0, 10);
} catch {
  // Not permitted or not supported here: run at normal priority.
}

/** One compute task. Embeddings go back as one array, moved rather than copied (see ComputePool). */
export default async function compute(task: ComputeTask): Promise<unknown> {
  if (task.type === 'analyze') return analyze(task);
  if (task.type === 'clip-image') return embedPicture(task);
  const vectors = task.type === 'clip-text' ? await clipTextEmbeddings(task.dir, task.texts) : await embedLocally(task.texts);
  const flat = new Float32Array(vectors.reduce((n, v) => n + v.length, 0));
  let at = 0;
  for (const v of vectors) {
    flat.set(v, at);
    at += v.length;
  }
  return Piscina.move(flat);
}
