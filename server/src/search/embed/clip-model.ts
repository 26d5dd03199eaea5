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

async function disposeQuietly(parts: Promise<Vision | Text>): Promise<void> {
  try {
    await (await parts).model.dispose();
  } catch {
    // It never loaded: nothing to release.
  }
}

/**
 * One half of the model, loaded from a folder on first use (dropping what another folder loaded).
 * A failed load is forgotten so that the next call, after the folder was repaired, tries again.
 */
class LoadedHalf<T extends Vision | Text> {
  private current: { dir: string; parts: Promise<T> } | null = null;

  constructor(private readonly load: (dir: string) => Promise<T>) {}

  async from(dir: string): Promise<T> {
    const previous = this.current;
    if (previous?.dir === dir) return previous.parts;
    const loading = {
      dir,
      parts: this.load(dir).catch((error: unknown) => {
        if (this.current === loading) this.current = null;
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`The image–text model in ${dir} could not be loaded: ${reason}`, { cause: error });
      }),
    };
    this.current = loading;
    if (previous) await disposeQuietly(previous.parts);
    return loading.parts;
  }

  async release(): Promise<void> {
    const previous = this.current;
    this.current = null;
    if (previous) await disposeQuietly(previous.parts);
  }
}

// Indexing needs only the vision half and a query only the text half: each loads on its own.
const vision = new LoadedHalf(loadVision);
const text = new LoadedHalf(loadText);

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
  const { processor, model } = await vision.from(path.resolve(dir));
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
  const { tokenizer, model } = await text.from(path.resolve(dir));
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
  await Promise.all([vision.release(), text.release()]);
}
