import { access } from 'node:fs/promises';
import path from 'node:path';
import type { PreTrainedModel, PreTrainedTokenizer, Processor, Tensor } from '@huggingface/transformers';

/** Packed RGB, 3 bytes a pixel, rows top to bottom. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

type Transformers = typeof import('@huggingface/transformers');

/**
 * The files of a model folder (laid out as on the model hub, int8 "q8" weights) that loading reads;
 * the hub's special_tokens_map.json is not among them, tokenizer_config.json says the same.
 */
const NEEDED_FILES = [
  'config.json',
  'preprocessor_config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'onnx/vision_model_quantized.onnx',
  'onnx/text_model_quantized.onnx',
];

/**
 * Embedding runs on a compute thread next to others: onnxruntime would otherwise start a pool of
 * threads per session, one per core, and an indexing burst would take every core of the machine.
 */
const SESSION_OPTIONS = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' as const };

let library: Promise<Transformers> | null = null;

/** Loaded on first use: a thread that never embeds never pays for onnxruntime. */
function transformers(): Promise<Transformers> {
  library ??= import('@huggingface/transformers').then((t) => {
    // Only the folder given is read: nothing is fetched and nothing is written to a cache.
    t.env.allowRemoteModels = false;
    t.env.allowLocalModels = true;
    t.env.useFSCache = false;
    t.env.useBrowserCache = false;
    t.env.logLevel = t.LogLevel.ERROR;
    return t;
  });
  return library;
}

interface Vision {
  processor: Processor;
  model: PreTrainedModel;
}
interface Text {
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
}
interface Loaded<T> {
  dir: string;
  parts: Promise<T>;
}

// Indexing needs only the vision half and a query only the text half: each loads on its own.
let vision: Loaded<Vision> | null = null;
let text: Loaded<Text> | null = null;

async function checkFiles(dir: string): Promise<void> {
  const missing: string[] = [];
  await Promise.all(NEEDED_FILES.map((file) => access(path.join(dir, file)).catch(() => missing.push(file))));
  if (missing.length > 0) throw new Error(`the model folder ${dir} lacks ${missing.sort().join(', ')}`);
}

function modelOptions() {
  return { dtype: 'q8', device: 'cpu', session_options: SESSION_OPTIONS, local_files_only: true } as const;
}

async function loadVision(dir: string): Promise<Vision> {
  await checkFiles(dir);
  const t = await transformers();
  const [processor, model] = await Promise.all([
    t.AutoProcessor.from_pretrained(dir, { local_files_only: true }),
    t.CLIPVisionModelWithProjection.from_pretrained(dir, modelOptions()),
  ]);
  return { processor, model };
}

async function loadText(dir: string): Promise<Text> {
  await checkFiles(dir);
  const t = await transformers();
  const [tokenizer, model] = await Promise.all([
    t.AutoTokenizer.from_pretrained(dir, { local_files_only: true }),
    t.CLIPTextModelWithProjection.from_pretrained(dir, modelOptions()),
  ]);
  return { tokenizer, model };
}

/**
 * The parts loaded from `dir`, loading them (and dropping those of another folder) on first use.
 * A failed load is forgotten so that the next call, after the folder was repaired, tries again.
 */
async function parts<T extends Vision | Text>(
  current: Loaded<T> | null,
  dir: string,
  load: (dir: string) => Promise<T>,
  keep: (loaded: Loaded<T> | null) => void,
): Promise<T> {
  if (current?.dir === dir) return current.parts;
  const loaded: Loaded<T> = { dir, parts: load(dir) };
  keep(loaded);
  if (current) await disposeQuietly(current);
  try {
    return await loaded.parts;
  } catch (error) {
    keep(null);
    throw new Error(`The image–text model in ${dir} could not be loaded: ${(error as Error).message}`, { cause: error });
  }
}

async function disposeQuietly(loaded: Loaded<Vision | Text>): Promise<void> {
  try {
    await (await loaded.parts).model.dispose();
  } catch {
    // It never loaded: nothing to release.
  }
}

/** Each row of a [n, d] tensor scaled to unit length (the models' projections are not normalised). */
function unitRows(tensor: Tensor): Float32Array[] {
  const [rows, dims] = tensor.dims as [number, number];
  const data = tensor.data as Float32Array;
  const out: Float32Array[] = [];
  for (let r = 0; r < rows; r++) {
    const row = data.subarray(r * dims, (r + 1) * dims);
    let sum = 0;
    for (const v of row) sum += v * v;
    const norm = Math.sqrt(sum);
    if (!Number.isFinite(norm) || norm === 0) throw new Error('the image–text model produced an empty or invalid vector');
    out.push(row.map((v) => v / norm));
  }
  return out;
}

function checkImage(image: RgbImage): void {
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || data.byteLength !== width * height * 3) {
    throw new Error(`not a packed RGB image: ${width}×${height} with ${data.byteLength} bytes`);
  }
}

/** One L2-normalised vector per image. Loads (and caches per folder) the processor and vision model. */
export async function clipImageEmbeddings(dir: string, images: RgbImage[]): Promise<Float32Array[]> {
  images.forEach(checkImage);
  const { processor, model } = await parts(vision, path.resolve(dir), loadVision, (v) => (vision = v));
  if (images.length === 0) return [];
  const { RawImage } = await transformers();
  const out: Float32Array[] = [];
  // One at a time: a q8 model quantises its activations over the whole batch, so a picture in a
  // batch would get a vector that depends on the others. On one thread batching gains little.
  for (const image of images) {
    const inputs = (await processor(new RawImage(image.data, image.width, image.height, 3))) as Record<string, Tensor>;
    const { image_embeds } = (await model(inputs)) as { image_embeds: Tensor };
    out.push(...unitRows(image_embeds));
  }
  return out;
}

/** One L2-normalised vector per text (tokenised with the model's tokenizer, truncated to its max length). */
export async function clipTextEmbeddings(dir: string, texts: string[]): Promise<Float32Array[]> {
  const { tokenizer, model } = await parts(text, path.resolve(dir), loadText, (t) => (text = t));
  const out: Float32Array[] = [];
  // One at a time, for the reason images are (and so that no text is padded).
  for (const one of texts) {
    const inputs = tokenizer([one], { truncation: true }) as Record<string, Tensor>;
    const { text_embeds } = (await model(inputs)) as { text_embeds: Tensor };
    out.push(...unitRows(text_embeds));
  }
  return out;
}

/** Disposes the loaded sessions (the thread goes idle). */
export async function releaseClip(): Promise<void> {
  const loaded = [vision, text].filter((l): l is Loaded<Vision> | Loaded<Text> => l !== null);
  vision = null;
  text = null;
  await Promise.all(loaded.map(disposeQuietly));
}
